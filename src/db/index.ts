/**
 * The only module that knows which database runs. `openStore` picks bun:sqlite (empty
 * DATABASE_URL) or Postgres (postgres-js), migrates it, and hands services one query-builder type
 * and one set of table objects; both dialects run the same builder API at run time.
 */
import { Database as SqliteDatabase } from 'bun:sqlite'
import { join } from 'node:path'
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { drizzle as drizzleSqlite } from 'drizzle-orm/bun-sqlite'
import { applyMigrations } from './migrate'
import * as sqliteTables from './schema.sqlite'
import { MIGRATION_LOCK } from './start-up-lock'
import { type Database, runPgWork, runSqliteWork, sqliteParams, toSqlite, type Tables, type Work } from './transaction'

export { execute, query, rows, run, type Database, type Tables, type Work } from './transaction'
export type Dialect = 'sqlite' | 'pg'

export interface Store {
	readonly dialect: Dialect
	readonly db: Database
	readonly tables: Tables
	/** Runs a unit of work atomically; see transaction.ts for how to write one. */
	transaction<Result>(work: Work<Result>): Promise<Result>
	/**
	 * Raw SQL read for hot paths, written in Postgres style (`$1`…); prepared once per text on both
	 * dialects. Booleans come back as 0/1 from SQLite and true/false from Postgres.
	 */
	read<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>
	/** Case-insensitive "column contains text" on both dialects, with LIKE wildcards escaped. */
	contains(column: SQLWrapper, text: string): SQL
	close(): Promise<void>
	/** SQLite on a file only: what the WAL checkpointer (wal-checkpointer.ts) needs. */
	readonly wal?: SqliteWal
}

export interface SqliteWal {
	/** The database file; its WAL is `<file>-wal`. */
	readonly file: string
	/** The request connection's automatic checkpoint, in WAL pages (SQLite's default 1 000; 0 turns it off). */
	setAutoCheckpointPages(pages: number): void
	/** The database's page size: a WAL frame is one page and its 24-byte header. */
	readonly pageSize: number
	/** What a WAL started over is cut back to, when its file grew past it (`journal_size_limit`). */
	setSizeLimit(bytes: number): void
	/**
	 * Holds `transaction`s until the returned function is called: they wait in memory, in order, and
	 * the event loop keeps running. Writes made outside `transaction` are not held.
	 */
	holdWrites(): () => void
}

interface StoreOptions {
	/** Empty for SQLite, `postgres://…` for Postgres. */
	databaseUrl: string
	/** SQLite file location: `<dataDir>/ferry.db`; `:memory:` opens a private in-memory database. */
	dataDir: string
	/** Postgres schema to use instead of `public` (tests isolate themselves this way). */
	pgSchema?: string
}

export async function openStore(options: StoreOptions): Promise<Store> {
	return options.databaseUrl ? openPgStore(options.databaseUrl, options.pgSchema) : openSqliteStore(options.dataDir)
}

function escapeLike(text: string) {
	return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** Until the WAL checkpointer (wal-checkpointer.ts) sets it from how far it lets the WAL grow. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024

function openSqliteStore(dataDir: string): Store {
	const file = dataDir === ':memory:' ? ':memory:' : join(dataDir, 'ferry.db')
	const client = new SqliteDatabase(file, { create: true, strict: true })
	// Before anything that locks: a process that had the file open a moment ago (a seeding script, a
	// node just stopped) may still hold it, and switching the journal mode must wait for it too.
	client.run('PRAGMA busy_timeout = 5000')
	client.run('PRAGMA journal_mode = WAL')
	client.run('PRAGMA synchronous = NORMAL')
	client.run('PRAGMA foreign_keys = ON')
	client.run('PRAGMA busy_timeout = 5000')
	// Billing touches many rows per second: a 64 MB page cache (the default is 2 MB) keeps them in
	// memory. Checkpoints stay automatic (in the commit that fills 1 000 WAL pages, with two fsyncs,
	// on the request thread) until `serve` starts the checkpointer thread (wal-checkpointer.ts).
	client.run('PRAGMA cache_size = -65536')
	// A WAL started over after a checkpoint is cut back to this size (SQLite reuses the file otherwise).
	client.run(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
	const db = drizzleSqlite(client, { schema: sqliteTables })
	/** Set while writes are held (`holdWrites`): resolves when they may go on. */
	let held: Promise<void> | undefined
	const store: Store = {
		dialect: 'sqlite',
		db,
		tables: sqliteTables,
		transaction: async (work) => {
			while (held) await held
			return runSqliteWork(db, client, sqliteTables, work)
		},
		read: async (text, params = []) => client.query(toSqlite(text)).all(...sqliteParams(params) as never[]) as never[],
		contains: (column, text) => sql`${column} LIKE ${escapeLike(text)} ESCAPE '\\'`,
		close: async () => client.close(),
		wal: file === ':memory:' ? undefined : {
			file,
			setAutoCheckpointPages: (pages) => client.run(`PRAGMA wal_autocheckpoint = ${Math.max(0, Math.trunc(pages))}`),
			pageSize: Number((client.query('PRAGMA page_size').get() as { page_size: number }).page_size),
			setSizeLimit: (bytes) => client.run(`PRAGMA journal_size_limit = ${Math.max(0, Math.trunc(bytes))}`),
			holdWrites() {
				let release = () => {}
				const hold = new Promise<void>((resolve) => {
					release = resolve
				})
				held = hold
				return () => {
					if (held === hold) held = undefined
					release()
				}
			},
		},
	}
	applyMigrations(db, 'sqlite')
	return store
}

/**
 * Postgres int8 comes back as a number, as SQLite's integers do: exact below 2^53. Times and ids
 * are far below it, and balances stay within MAX_QUOTA (@shared/quota-limit, 10^15).
 */
const BIGINT_AS_NUMBER = { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) }

/** The Postgres driver loads only when a Postgres URL is configured. */
async function openPgStore(url: string, schema?: string): Promise<Store> {
	const [{ default: postgres }, { drizzle: drizzlePg }, pgTables] = await Promise.all([
		import('postgres'), import('drizzle-orm/postgres-js'), import('./schema.pg'),
	])
	const connection = schema ? { search_path: schema } : undefined
	await migratePg(postgres, drizzlePg, url, schema, connection)
	const client = postgres(url, { max: 10, onnotice: () => {}, connection, types: { bigint: BIGINT_AS_NUMBER } })
	const db = drizzlePg(client, { schema: pgTables })
	return {
		dialect: 'pg',
		db: db as unknown as Database,
		tables: pgTables as unknown as Tables,
		transaction: (work) => runPgWork(db, pgTables as unknown as Tables, work),
		read: (text, params = []) => client.unsafe(text, params as never[], { prepare: true }) as never,
		contains: (column, text) => sql`${column} ILIKE ${escapeLike(text)} ESCAPE '\\'`,
		close: () => client.end({ timeout: 5 }),
	}
}

/** Nodes starting together take turns: an advisory lock on one dedicated connection. */
async function migratePg(
	postgres: typeof import('postgres'), drizzlePg: typeof import('drizzle-orm/postgres-js').drizzle,
	url: string, schema: string | undefined, connection: Record<string, string> | undefined,
) {
	const client = postgres(url, { max: 1, onnotice: () => {}, connection })
	try {
		await client`SELECT pg_advisory_lock(${MIGRATION_LOCK})`
		try {
			// Inside the turn too: two `CREATE SCHEMA IF NOT EXISTS` at once can both try to create it.
			if (schema) await client.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', '""')}"`)
			await applyMigrations(drizzlePg(client), 'pg', schema)
		} finally {
			await client`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`
		}
	} finally {
		await client.end({ timeout: 5 })
	}
}
