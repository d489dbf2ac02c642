/**
 * The dashboard between two roll-ups: the export writes `quota_data` every `DataExportInterval`
 * minutes, so the newest hours are read from the log itself, bucketed as the export buckets them
 * (the same statement, src/db/quota-buckets.ts). From the newest exported bucket's hour (which the
 * last run may have left partial) to now, a bucket computed here replaces the stored one unless it
 * counts fewer calls (the log was cleaned up since: the stored one keeps what was there), as the
 * export itself decides.
 *
 * Those hours may hold millions of logs (an hour and more of a busy node), and bun:sqlite runs a
 * statement synchronously: on a SQLite file the sum runs on a reading thread of its own
 * (bucket-reader.ts), started for the request and ended after it, so that other requests never wait
 * for it. On Postgres (and an in-memory SQLite, which no other connection can read) it is one
 * statement in the database.
 */
import { SECONDS_PER_HOUR, type QuotaData } from '@shared/quota-data'
import type { Store } from '@/db'
import { bucketRead, type BucketScope, type QuotaBucket } from '@/db/quota-buckets'
import { bucketReaderWorkerUrl, openBucketReader } from './bucket-reader'
import { newestExportedHour } from './export'

/** With nothing exported yet, the log is read for this long: the first run is at most an interval away. */
const UNEXPORTED_LOOKBACK_SECONDS = 2 * SECONDS_PER_HOUR

const bucketKey = (bucket: Pick<QuotaData, 'user_id' | 'model_name' | 'created_at'>) => `${bucket.user_id}\n${bucket.model_name}\n${bucket.created_at}`

/** Where the log takes over from `quota_data`: the newest exported hour, or a little before now. */
export async function liveFrom(store: Store, now: number): Promise<number> {
	return await newestExportedHour(store) ?? now - (now % SECONDS_PER_HOUR) - UNEXPORTED_LOOKBACK_SECONDS
}

/** `scope`'s buckets of `from <= created_at < to` (whole hours), off the request thread on a SQLite file. */
async function readBuckets(store: Store, from: number, to: number, scope: BucketScope): Promise<QuotaBucket[]> {
	if (!store.wal) {
		const { text, params } = bucketRead(from, to, scope)
		return store.read<QuotaBucket>(text, params)
	}
	const reader = await openBucketReader(bucketReaderWorkerUrl(), store.wal.file)
	try {
		return await reader.read(from, to, scope)
	} finally {
		await reader.close()
	}
}

/** The buckets of consume entries (channel tests left out) whose hour starts within [from, end]; `from` is a whole hour. */
async function bucketsFromLog(store: Store, from: number, end: number, scope: BucketScope): Promise<QuotaData[]> {
	const rows = await readBuckets(store, from, end - (end % SECONDS_PER_HOUR) + SECONDS_PER_HOUR, scope)
	// Postgres answers the sums (and the hour of a bigint) as text.
	return rows.map((row) => ({
		id: 0,
		user_id: Number(row.user_id),
		username: row.username,
		model_name: row.model_name,
		created_at: Number(row.created_at),
		token_used: Number(row.token_used),
		count: Number(row.count),
		quota: Number(row.quota),
	}))
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
