/**
 * The dashboard's export (docs/specification/logs-and-dashboard.md#the-usage-dashboard): hourly buckets of consume logs per user and model, written
 * into `quota_data`.
 *
 * A run recomputes every bucket from the hour before the newest exported one up to now and writes
 * the recomputed values over the stored ones, so a run repeated, interrupted or overlapping another
 * never counts a call twice. The watermark is the data itself (`max(created_at)` of `quota_data`):
 * nothing to keep in step, and a crash between two runs loses nothing. The hour of lookback catches
 * a log that committed after the previous run read its hour.
 *
 * Consume logs are only ever added or deleted, so a bucket's true count only grows: a recomputed
 * bucket with fewer calls than the stored one lost logs to a cleanup, and the stored row stays.
 */
import { execute, query, type Store } from '@/db'
import { SECONDS_PER_HOUR } from '@shared/quota-data'
import { LOG_TYPE } from '@shared/log'

/**
 * Channel tests write consume entries too (what the call would have cost, not charged: `other` says
 * `channel_test`); they are not usage, so the dashboard leaves them out.
 */
export const NOT_A_CHANNEL_TEST = `other NOT LIKE '%"channel_test":true%'`

/**
 * The hour bucket is `created_at - created_at % 3600` on both dialects. `WHERE` keeps SQLite's
 * parser from reading `ON CONFLICT` as a join constraint of the SELECT.
 */
const UPSERT_BUCKETS = `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota)
	SELECT user_id, MAX(username), model_name, created_at - created_at % ${SECONDS_PER_HOUR},
		SUM(prompt_tokens + completion_tokens), COUNT(*), SUM(quota)
	FROM logs
	WHERE type = $1 AND created_at >= $2 AND ${NOT_A_CHANNEL_TEST}
	GROUP BY user_id, model_name, created_at - created_at % ${SECONDS_PER_HOUR}
	ON CONFLICT (user_id, model_name, created_at) DO UPDATE SET
		username = excluded.username,
		token_used = CASE WHEN excluded.count >= quota_data.count THEN excluded.token_used ELSE quota_data.token_used END,
		quota = CASE WHEN excluded.count >= quota_data.count THEN excluded.quota ELSE quota_data.quota END,
		count = CASE WHEN excluded.count >= quota_data.count THEN excluded.count ELSE quota_data.count END`

const NEWEST_BUCKET = 'SELECT MAX(created_at) AS newest FROM quota_data'

export type ExportSummary = {
	/** The first hour recomputed (unix seconds; 0 on the first run, which reads every log). */
	from: number
	/** Buckets written or rewritten. */
	buckets: number
}

/** One export run, in one transaction. */
export async function exportQuotaData(store: Store): Promise<ExportSummary> {
	return store.transaction(function* () {
		const [row] = yield* query<{ newest: number | null }>(NEWEST_BUCKET)
		const newest = row?.newest == null ? undefined : Number(row.newest)
		const from = newest === undefined ? 0 : newest - SECONDS_PER_HOUR
		const buckets = yield* execute(UPSERT_BUCKETS, [LOG_TYPE.consume, from])
		return { from, buckets }
	})
}
