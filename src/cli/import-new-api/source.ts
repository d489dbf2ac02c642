/**
 * Reading a new-api (or one-api) database, which runs on SQLite, Postgres or MySQL: a SQLite file is
 * opened read-only with bun:sqlite, a `postgres://` or `mysql://` URL with Bun's built-in SQL
 * client. Nothing here writes to the source. Rows come back as the driver gives them; `values.ts`
 * turns them into Ferry's types.
 *
 * A Postgres URL may name the schema new-api's tables live in with `?search_path=<schema>`.
 */
import { Database } from 'bun:sqlite'
import { SQL } from 'bun'
import { existsSync } from 'node:fs'

export type SourceKind = 'sqlite' | 'postgres' | 'mysql'
export type SourceRow = Record<string, unknown>

export interface SourceDatabase {
	readonly kind: SourceKind
	/** Where the data comes from, for messages: the file, or the URL without its password. */
	readonly description: string
	hasTable(table: string): Promise<boolean>
	/** The table's column names (empty for a table that does not exist). */
	columns(table: string): Promise<Set<string>>
	count(table: string): Promise<number>
	/** The highest `id` of the table, 0 when it is empty. */
	maxId(table: string): Promise<number>
	/** The rows of a table keyed by `id` (GORM's ids start at 1), in id order, a page at a time. */
	pages(table: string, pageSize: number): AsyncGenerator<SourceRow[]>
	/** The rows `pages` never reads: an id that is NULL, zero or below. */
	countWithoutId(table: string): Promise<number>
	/** Every row of a small table (options, abilities). */
	all(table: string): Promise<SourceRow[]>
	close(): Promise<void>
}

export class SourceError extends Error {}

const POSTGRES_URL = /^postgres(ql)?:\/\//i
const MYSQL_URL = /^mysql:\/\//i
const SEARCH_PATH_PARAMETERS = ['search_path', 'schema'] as const

/** The rows `pages` skips (it reads `id > 0` upwards). */
const WITHOUT_ID = 'WHERE id IS NULL OR id <= 0'

/** The table and column names are this importer's own constants, never input; quoting is for reserved words (`group`, `key`). */
const quoted = (kind: SourceKind, name: string) => kind === 'mysql' ? `\`${name}\`` : `"${name}"`

export async function openSource(location: string): Promise<SourceDatabase> {
	if (POSTGRES_URL.test(location)) return openServer(location, 'postgres')
	if (MYSQL_URL.test(location)) return openServer(location, 'mysql')
	return openSqliteFile(location)
}

/** new-api's own SQLite setting looks like `one-api.db?_busy_timeout=30000`: the file is the part before `?`. */
function sqlitePath(location: string): string {
	const path = location.replace(/^(sqlite|file):(\/\/)?/i, '')
	if (existsSync(path)) return path
	const withoutOptions = path.split('?')[0]!
	if (existsSync(withoutOptions)) return withoutOptions
	throw new SourceError(`no new-api database at ${location}: give the SQLite file, or a postgres:// or mysql:// URL`)
}

function openSqliteFile(location: string): SourceDatabase {
	const path = sqlitePath(location)
	let database: Database
	try {
		database = new Database(path, { readonly: true })
		database.query('SELECT count(*) FROM sqlite_master').get()
	} catch (error) {
		throw new SourceError(`cannot read ${path} as a SQLite database: ${(error as Error).message}`)
	}
	const columns = (table: string) => new Set((database.query(`PRAGMA table_info(${quoted('sqlite', table)})`).all() as { name: string }[]).map((row) => row.name))
	return {
		kind: 'sqlite',
		description: path,
		hasTable: async (table) => Boolean(database.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)),
		columns: async (table) => columns(table),
		count: async (table) => Number((database.query(`SELECT count(*) AS total FROM ${quoted('sqlite', table)}`).get() as { total: number }).total),
		maxId: async (table) => Number((database.query(`SELECT max(id) AS top FROM ${quoted('sqlite', table)}`).get() as { top: number | null }).top ?? 0),
		countWithoutId: async (table) => Number((database.query(`SELECT count(*) AS total FROM ${quoted('sqlite', table)} ${WITHOUT_ID}`).get() as { total: number }).total),
		async *pages(table, pageSize) {
			const page = database.query(`SELECT * FROM ${quoted('sqlite', table)} WHERE id > ? ORDER BY id LIMIT ?`)
			let after: unknown = 0
			for (;;) {
				const rows = page.all(after as number, pageSize) as SourceRow[]
				if (rows.length === 0) return
				yield rows
				after = rows.at(-1)!.id
				if (rows.length < pageSize) return
			}
		},
		all: async (table) => database.query(`SELECT * FROM ${quoted('sqlite', table)}`).all() as SourceRow[],
		close: async () => database.close(),
	}
}

/** The URL for messages: its password replaced by `***`. */
function withoutPassword(url: URL): string {
	const shown = new URL(url)
	if (shown.password) shown.password = '***'
	return shown.toString()
}

async function openServer(location: string, kind: 'postgres' | 'mysql'): Promise<SourceDatabase> {
	let url: URL
	try {
		url = new URL(location)
	} catch {
		throw new SourceError(`${kind === 'postgres' ? 'the Postgres' : 'the MySQL'} URL cannot be read: check its form (${kind}://user:password@host:port/database)`)
	}
	let searchPath: string | undefined
	for (const parameter of SEARCH_PATH_PARAMETERS) {
		searchPath ??= url.searchParams.get(parameter) ?? undefined
		url.searchParams.delete(parameter)
	}
	const client = new SQL({
		url: url.toString(),
		adapter: kind,
		max: 2,
		...(kind === 'postgres' && searchPath ? { connection: { search_path: searchPath } } : {}),
	})
	const description = withoutPassword(url)
	const run = async (text: string, params: unknown[] = []): Promise<SourceRow[]> => {
		const placeholders = kind === 'mysql' ? text.replace(/\$\d+/g, '?') : text
		return [...await client.unsafe(placeholders, params)] as SourceRow[]
	}
	try {
		await run('SELECT 1')
	} catch (error) {
		await client.close().catch(() => {})
		throw new SourceError(`cannot connect to ${description}: ${(error as Error).message}`)
	}
	// The schema new-api uses: the connection's current one (Postgres) or database (MySQL).
	const currentSchema = kind === 'postgres' ? 'current_schema()' : 'DATABASE()'
	const columns = async (table: string) => new Set((await run(
		`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = ${currentSchema} AND table_name = $1`, [table],
	)).map((row) => String(row.name ?? row.NAME ?? row.COLUMN_NAME)))
	return {
		kind,
		description,
		hasTable: async (table) => (await run(
			`SELECT 1 AS found FROM information_schema.tables WHERE table_schema = ${currentSchema} AND table_name = $1`, [table],
		)).length > 0,
		columns,
		count: async (table) => Number((await run(`SELECT count(*) AS total FROM ${quoted(kind, table)}`))[0]?.total ?? 0),
		maxId: async (table) => Number((await run(`SELECT max(id) AS top FROM ${quoted(kind, table)}`))[0]?.top ?? 0),
		countWithoutId: async (table) => Number((await run(`SELECT count(*) AS total FROM ${quoted(kind, table)} ${WITHOUT_ID}`))[0]?.total ?? 0),
		async *pages(table, pageSize) {
			let after: unknown = 0
			for (;;) {
				const rows = await run(`SELECT * FROM ${quoted(kind, table)} WHERE id > $1 ORDER BY id LIMIT $2`, [after, pageSize])
				if (rows.length === 0) return
				yield rows
				after = rows.at(-1)!.id
				if (rows.length < pageSize) return
			}
		},
		all: (table) => run(`SELECT * FROM ${quoted(kind, table)}`),
		close: () => client.close(),
	}
}
