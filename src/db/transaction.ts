/**
 * Atomic units of work that run unchanged on both dialects.
 *
 * bun:sqlite transactions must be synchronous (an `await` inside BEGIN…COMMIT would let other
 * requests' statements run on the same connection), while Postgres transactions are asynchronous.
 * So a unit of work is a generator: it `yield*`s each statement through `rows` or `run`, and the
 * dialect's driver executes the statement synchronously (SQLite) or awaits it (Postgres) and hands
 * the result back. A unit of work must do nothing but database statements and plain computation.
 *
 *   store.transaction(function* (tx, { users }) {
 *     const [user] = yield* rows(tx.update(users).set(...).where(...).returning())
 *   })
 *
 * Always use the `tables` handed to the unit of work: each dialect has its own table objects.
 */
import type { BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import type * as tables from './schema.sqlite'

/** The query-builder type every service writes against; on Postgres the same builder API runs. */
export type Database = BunSQLiteDatabase<typeof tables>

type StatementStep = { kind: 'rows' | 'run'; statement: unknown }
type Step = StatementStep | { kind: 'query' | 'execute'; text: string; params: unknown[] }
export type Tables = typeof tables
export type Work<Result> = (tx: Database, tables: Tables) => Generator<Step, Result, unknown>

/** Executes a statement inside a unit of work and returns its rows (selects, `returning()`). */
export function* rows<Row>(statement: PromiseLike<Row[]>): Generator<Step, Row[], unknown> {
	return (yield { kind: 'rows', statement }) as Row[]
}

/** Executes a statement inside a unit of work and returns how many rows it changed. */
export function* run(statement: PromiseLike<unknown>): Generator<Step, number, unknown> {
	return (yield { kind: 'run', statement }) as number
}

/**
 * Executes raw SQL inside a unit of work and returns its rows, for the hot paths where building
 * the query costs more than running it. Write it once in Postgres style (`$1`, `$2`…, double-quoted
 * identifiers, columns by their database names); SQLite runs the same text with `?1`, `?2`….
 * Both dialects keep the prepared statement, keyed by the text.
 */
export function* query<Row = Record<string, unknown>>(text: string, params: unknown[] = []): Generator<Step, Row[], unknown> {
	return (yield { kind: 'query', text, params }) as Row[]
}

/**
 * Executes a raw SQL write (no RETURNING) inside a unit of work and returns how many rows it
 * changed: the cheapest way to run a guarded update, whose outcome is only "did it apply".
 */
export function* execute(text: string, params: unknown[] = []): Generator<Step, number, unknown> {
	return (yield { kind: 'execute', text, params }) as number
}

type SyncStatement = { all(): unknown[]; run(): { changes: number } }
type SqliteClient = { query(text: string): { all(...params: unknown[]): unknown[]; run(...params: unknown[]): { changes: number } } }
type PgClient = { unsafe(text: string, params: unknown[], options: { prepare: boolean }): PromiseLike<unknown[]> }

const sqliteText = new Map<string, string>()
export function toSqlite(text: string) {
	let converted = sqliteText.get(text)
	if (converted === undefined) {
		converted = text.replace(/\$(\d+)/g, '?$1')
		sqliteText.set(text, converted)
	}
	return converted
}

/** Booleans bind as 1/0 in SQLite, as Ferry's boolean columns store them. */
export function sqliteParams(params: unknown[]): unknown[] {
	for (let index = 0; index < params.length; index++) {
		if (typeof params[index] === 'boolean') return params.map((value) => typeof value === 'boolean' ? Number(value) : value)
	}
	return params
}

type SqliteTransactionClient = SqliteClient & { prepare(text: string): { run(): unknown }; readonly inTransaction: boolean }

/** BEGIN IMMEDIATE, COMMIT and ROLLBACK, prepared once per connection. */
const transactionStatements = new WeakMap<object, { begin: { run(): unknown }; commit: { run(): unknown }; rollback: { run(): unknown } }>()

/**
 * Runs a unit of work in one `BEGIN IMMEDIATE` … `COMMIT` on the connection, rolled back if it
 * throws. The work's builder statements are built on the store's own `database`: on one SQLite
 * connection every statement between BEGIN and COMMIT belongs to the transaction, so no
 * transaction object is needed (drizzle's and bun:sqlite's wrappers cost ~4 µs a transaction, about
 * what a small batch's statements do: docs/performance.md). Units of work never nest transactions.
 */
export function runSqliteWork<Result>(database: Database, client: SqliteTransactionClient, tableSet: Tables, work: Work<Result>): Result {
	let statements = transactionStatements.get(client)
	if (!statements) {
		statements = { begin: client.prepare('BEGIN IMMEDIATE'), commit: client.prepare('COMMIT'), rollback: client.prepare('ROLLBACK') }
		transactionStatements.set(client, statements)
	}
	statements.begin.run()
	try {
		const steps = work(database, tableSet)
		let step = steps.next()
		while (!step.done) {
			const current = step.value
			if (current.kind === 'query' || current.kind === 'execute') {
				const prepared = client.query(toSqlite(current.text))
				const params = sqliteParams(current.params)
				step = steps.next(current.kind === 'query' ? prepared.all(...params) : prepared.run(...params).changes)
				continue
			}
			const statement = (current as StatementStep).statement as SyncStatement
			step = steps.next(current.kind === 'rows' ? statement.all() : statement.run().changes)
		}
		statements.commit.run()
		return step.value
	} catch (error) {
		if (client.inTransaction) statements.rollback.run()
		throw error
	}
}

type PgTransactional = { transaction<T>(callback: (tx: unknown) => Promise<T>): Promise<T> }

export function runPgWork<Result>(database: PgTransactional, tableSet: Tables, work: Work<Result>): Promise<Result> {
	return database.transaction(async (tx) => {
		const steps = work(tx as Database, tableSet)
		let step = steps.next()
		while (!step.done) {
			const current = step.value
			if (current.kind === 'query' || current.kind === 'execute') {
				// drizzle's postgres-js transaction runs on `session.client`, the transaction's own connection.
				const client = (tx as unknown as { session: { client: PgClient } }).session.client
				const result = await client.unsafe(current.text, current.params, { prepare: true })
				step = steps.next(current.kind === 'query' ? result : (result as unknown as { count: number }).count)
				continue
			}
			const result = await ((current as StatementStep).statement as PromiseLike<unknown>)
			step = steps.next(current.kind === 'rows' ? result : (result as { count: number }).count)
		}
		return step.value
	})
}
