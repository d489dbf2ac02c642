/**
 * The dashboard's hourly buckets as SQL, for both dialects and every place that reads them: the
 * export (src/api/data/export.ts), the dashboard's live hours (src/api/data/live-buckets.ts) and, on
 * a SQLite file, the reading thread both use (src/workers/data-export.ts).
 * Plain text with Postgres-style parameters (`$1`…), importing nothing that opens a database.
 */
import { LOG_TYPE } from '@shared/log-constants'
import { SECONDS_PER_HOUR } from '@shared/quota-data-constants'

/**
 * Channel tests write consume entries too (what the call would have cost, not charged: `other` says
 * `channel_test`); they are not usage, so the dashboard leaves them out.
 */
export const NOT_A_CHANNEL_TEST = `other NOT LIKE '%"channel_test":true%'`

/** A bucket as `bucketRead`'s statement answers it (on Postgres the sums and hour come as text) (`created_at`: the start of its hour). */
export type QuotaBucket = {
	user_id: number
	username: string
	model_name: string
	created_at: number
	token_used: number
	count: number
	quota: number
}

/** The bucket's hour is `created_at - created_at % 3600` on both dialects. */
const HOUR_OF_LOG = `created_at - created_at % ${SECONDS_PER_HOUR}`

/** Whose logs a read sums: everyone's, or one user's, by id or else by username (an empty one: everyone's). */
export type BucketScope = { userId?: number; username?: string }

/** The column `$3` names for a scope, if any. */
const SCOPE_COLUMNS = { all: undefined, user: 'user_id', username: 'username' } as const

/**
 * The buckets of the consume logs with `$1 <= created_at < $2` (and, scoped, `user_id` or
 * `username` = `$3`). Both bounds are whole hours, so a bucket is never split between two reads.
 */
function bucketsBetween(scope: keyof typeof SCOPE_COLUMNS) {
	const column = SCOPE_COLUMNS[scope]
	return `SELECT user_id, MAX(username) AS username, model_name, ${HOUR_OF_LOG} AS created_at,
		SUM(prompt_tokens + completion_tokens) AS token_used, COUNT(*) AS count, SUM(quota) AS quota
	FROM logs
	WHERE type = ${LOG_TYPE.consume} AND created_at >= $1 AND created_at < $2 AND ${NOT_A_CHANNEL_TEST}${column ? ` AND ${column} = $3` : ''}
	GROUP BY user_id, model_name, ${HOUR_OF_LOG}`
}

/** Every user's buckets of `$1 <= created_at < $2` (see `bucketsBetween`). */
export const BUCKETS_BETWEEN = bucketsBetween('all')

/** In hour order, as the export writes them (see export.ts on why). */
const IN_HOUR_ORDER = {
	all: `${BUCKETS_BETWEEN} ORDER BY created_at`,
	user: `${bucketsBetween('user')} ORDER BY created_at`,
	username: `${bucketsBetween('username')} ORDER BY created_at`,
}

/**
 * The statement reading `scope`'s buckets of `from <= created_at < to` (both whole hours), oldest hour
 * first, and its parameters. Three texts in all, so each is prepared once.
 */
export function bucketRead(from: number, to: number, scope: BucketScope = {}): { text: string; params: (number | string)[] } {
	if (scope.userId !== undefined) return { text: IN_HOUR_ORDER.user, params: [from, to, scope.userId] }
	if (scope.username) return { text: IN_HOUR_ORDER.username, params: [from, to, scope.username] }
	return { text: IN_HOUR_ORDER.all, params: [from, to] }
}

/**
 * Writes recomputed buckets over the stored ones, keeping a stored bucket that counted more calls
 * (its logs were cleaned up since).
 */
const KEEP_THE_LARGER_COUNT = `ON CONFLICT (user_id, model_name, created_at) DO UPDATE SET
		username = excluded.username,
		token_used = CASE WHEN excluded.count >= quota_data.count THEN excluded.token_used ELSE quota_data.token_used END,
		quota = CASE WHEN excluded.count >= quota_data.count THEN excluded.quota ELSE quota_data.quota END,
		count = CASE WHEN excluded.count >= quota_data.count THEN excluded.count ELSE quota_data.count END`

const BUCKET_COLUMNS = 'user_id, username, model_name, created_at, token_used, count, quota'

/**
 * Recomputes and writes the buckets of `$1 <= created_at < $2` in one statement, inside the database.
 * The SELECT's `WHERE` keeps SQLite's parser from reading `ON CONFLICT` as a join constraint.
 */
export const UPSERT_BUCKETS_BETWEEN = `INSERT INTO quota_data (${BUCKET_COLUMNS})
	${BUCKETS_BETWEEN}
	${KEEP_THE_LARGER_COUNT}`

/** Writes `rows` buckets read elsewhere (seven parameters each, in `BUCKET_COLUMNS` order). */
export function upsertBucketValues(rows: number): string {
	const tuples = Array.from({ length: rows }, (_, row) => `(${Array.from({ length: 7 }, (_, column) => `$${row * 7 + column + 1}`).join(', ')})`)
	return `INSERT INTO quota_data (${BUCKET_COLUMNS}) VALUES ${tuples.join(', ')}
	${KEEP_THE_LARGER_COUNT}`
}

/** The bucket parameters of `upsertBucketValues`, in its column order. */
export function bucketParameters(buckets: readonly QuotaBucket[]): (string | number)[] {
	return buckets.flatMap((bucket) => [bucket.user_id, bucket.username, bucket.model_name, bucket.created_at, bucket.token_used, bucket.count, bucket.quota])
}

/** The hour of the oldest consume log at or after `$1` (none: no row). Uses `logs_created_at_type_index`. */
export const FIRST_LOG_HOUR_FROM = `SELECT ${HOUR_OF_LOG} AS hour FROM logs
	WHERE created_at >= $1 AND type = ${LOG_TYPE.consume} ORDER BY created_at LIMIT 1`

/** To the export's reading thread on SQLite (src/workers/data-export.ts), one at a time. */
export type BucketReadRequest =
	| { kind: 'open'; file: string }
	/** `scope`'s buckets (everyone's if none) of `from <= created_at < to`, both whole hours. */
	| { kind: 'read'; from: number; to: number; scope?: BucketScope }
	| { kind: 'close' }

/** From the reading thread: one answer per request. */
export type BucketReadReport =
	| { kind: 'ready' }
	| { kind: 'buckets'; buckets: QuotaBucket[] }
	| { kind: 'closed' }
	| { kind: 'failed'; error: string }
