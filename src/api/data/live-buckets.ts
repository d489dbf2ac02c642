/**
 * The dashboard between two roll-ups: the export writes `quota_data` every `DataExportInterval`
 * minutes, so the newest hours are read from the log itself, bucketed as the export buckets them.
 * From the newest exported bucket's hour (which the last run may have left partial) to now, a bucket
 * computed here replaces the stored one unless it counts fewer calls (the log was cleaned up since:
 * the stored one keeps what was there), as the export itself decides.
 */
import { and, count, eq, gte, lte, max, sql, type SQL } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { SECONDS_PER_HOUR, type QuotaData } from '@shared/quota-data'
import type { Store } from '@/db'
import { NOT_A_CHANNEL_TEST } from './export'

/** With nothing exported yet, the log is read for this long: the first run is at most an interval away. */
const UNEXPORTED_LOOKBACK_SECONDS = 2 * SECONDS_PER_HOUR

export type BucketScope = { userId?: number; username?: string }

const bucketKey = (bucket: Pick<QuotaData, 'user_id' | 'model_name' | 'created_at'>) => `${bucket.user_id}\n${bucket.model_name}\n${bucket.created_at}`

/** Where the log takes over from `quota_data`: the newest exported hour, or a little before now. */
export async function liveFrom(store: Store, now: number): Promise<number> {
	const { quotaData } = store.tables
	const [row] = await store.db.select({ newest: max(quotaData.createdAt) }).from(quotaData)
	const newest = row?.newest == null ? undefined : Number(row.newest)
	return newest ?? now - (now % SECONDS_PER_HOUR) - UNEXPORTED_LOOKBACK_SECONDS
}

/** The buckets of consume entries (channel tests left out) whose hour starts within [from, end]. */
async function bucketsFromLog(store: Store, from: number, end: number, scope: BucketScope): Promise<QuotaData[]> {
	const { logs } = store.tables
	// The divisor is written into the statement: Postgres matches the grouped expression to the selected one by its text.
	const hour = sql<number>`${logs.createdAt} - ${logs.createdAt} % ${sql.raw(String(SECONDS_PER_HOUR))}`
	const conditions: SQL[] = [eq(logs.type, LOG_TYPE.consume), gte(logs.createdAt, from), lte(logs.createdAt, end + SECONDS_PER_HOUR - 1), sql.raw(NOT_A_CHANNEL_TEST)]
	if (scope.userId !== undefined) conditions.push(eq(logs.userId, scope.userId))
	else if (scope.username) conditions.push(eq(logs.username, scope.username))
	const rows = await store.db.select({
		userId: logs.userId,
		username: max(logs.username),
		modelName: logs.modelName,
		createdAt: hour.mapWith(Number),
		tokenUsed: sql<number>`coalesce(sum(${logs.promptTokens} + ${logs.completionTokens}), 0)`.mapWith(Number),
		count: count(),
		quota: sql<number>`coalesce(sum(${logs.quota}), 0)`.mapWith(Number),
	}).from(logs).where(and(...conditions)).groupBy(logs.userId, logs.modelName, hour)
	return rows
		.filter((row) => row.createdAt >= from && row.createdAt <= end)
		.map((row) => ({ id: 0, user_id: row.userId, username: row.username ?? '', model_name: row.modelName, created_at: row.createdAt, token_used: row.tokenUsed, count: row.count, quota: row.quota }))
}

/**
 * `stored` (the range's exported buckets, oldest first) with the hours from the log's take-over
 * point read live. Live buckets not exported yet have id 0.
 */
export async function withLiveBuckets(store: Store, stored: QuotaData[], start: number, end: number, scope: BucketScope, now: number): Promise<QuotaData[]> {
	const from = Math.max(start, await liveFrom(store, now))
	if (from > end) return stored
	const live = await bucketsFromLog(store, from - (from % SECONDS_PER_HOUR), end, scope)
	const merged = new Map(stored.map((bucket) => [bucketKey(bucket), bucket]))
	for (const bucket of live) {
		if (bucket.created_at < start) continue
		const existing = merged.get(bucketKey(bucket))
		if (!existing || bucket.count >= existing.count) merged.set(bucketKey(bucket), { ...bucket, id: existing?.id ?? 0 })
	}
	return [...merged.values()].sort((left, right) => left.created_at - right.created_at || left.model_name.localeCompare(right.model_name) || left.user_id - right.user_id)
}
