/**
 * Start-up work that must happen once however many nodes start together on one Postgres database
 * (the migrations, the first account) runs under an advisory lock, so the nodes take turns and each
 * later one finds the work done. SQLite needs no lock: its write transactions (BEGIN IMMEDIATE)
 * already take turns across processes.
 */
import type { Dialect } from './index'
import { query } from './transaction'

/** Held on a connection of its own while the migrations run (`migratePg` in index.ts). */
export const MIGRATION_LOCK = 4242001
const SEED_LOCK = 4242002

/**
 * A unit of work's first step (db/transaction.ts) when it creates start-up rows: on Postgres it
 * waits until no other node's such transaction is open, and holds the turn until this one ends.
 * Read what exists after it, not before.
 */
export function* takeStartUpTurn(dialect: Dialect) {
	if (dialect === 'pg') yield* query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK])
}
