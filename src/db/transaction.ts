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

type Step = { kind: 'rows' | 'run'; statement: unknown }
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

type SyncStatement = { all(): unknown[]; run(): { changes: number } }

export function runSqliteWork<Result>(database: Database, tableSet: Tables, work: Work<Result>): Result {
	return database.transaction((tx) => {
		const steps = work(tx as Database, tableSet)
		let step = steps.next()
		while (!step.done) {
			const statement = step.value.statement as SyncStatement
			step = steps.next(step.value.kind === 'rows' ? statement.all() : statement.run().changes)
		}
		return step.value
	}, { behavior: 'immediate' })
}

type PgTransactional = { transaction<T>(callback: (tx: unknown) => Promise<T>): Promise<T> }

export function runPgWork<Result>(database: PgTransactional, tableSet: Tables, work: Work<Result>): Promise<Result> {
	return database.transaction(async (tx) => {
		const steps = work(tx as Database, tableSet)
		let step = steps.next()
		while (!step.done) {
			const result = await (step.value.statement as PromiseLike<unknown>)
			step = steps.next(step.value.kind === 'rows' ? result : (result as { count: number }).count)
		}
		return step.value
	})
}
