/**
 * Whether a write failed because a unique index (or primary key) already holds the value, on either
 * dialect. The driver's error does not reach the caller as it was thrown: drizzle wraps it in a
 * `DrizzleQueryError` whose message is the query text and its parameters, with the driver's error
 * as `cause` (and a transaction may wrap it once more), so the chain of causes is followed and only
 * the drivers' codes are read — never the message, which carries the caller's values.
 */

/** Postgres' SQLSTATE for unique_violation. */
const POSTGRES_UNIQUE_VIOLATION = '23505'
/** bun:sqlite's extended result codes for a unique index and a primary key. */
const SQLITE_UNIQUE_VIOLATIONS: ReadonlySet<unknown> = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'])
/** Wrappers seen in practice are one or two deep; a cycle of causes must not loop. */
const MAX_CAUSE_DEPTH = 8

export function isUniqueViolation(error: unknown): boolean {
	let current = error
	for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
		const { code, cause } = current as { code?: unknown; cause?: unknown }
		if (code === POSTGRES_UNIQUE_VIOLATION || SQLITE_UNIQUE_VIOLATIONS.has(code)) return true
		current = cause
	}
	return false
}
