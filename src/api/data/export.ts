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
 *
 * No step holds the database or the event loop for long, however many logs there are (the first run
 * on a node with years of logs reads them all): the logs are read a day at a time (`CHUNK_SECONDS`),
 * oldest first, skipping days without consume logs.
 * - On a SQLite file the day's scan runs on a thread of its own (bucket-reader.ts), and the main
 *   thread writes the buckets it answers, `WRITE_BATCH` at a time, each batch its own short
 *   transaction, in hour order. A run stopped between two batches leaves every hour before the newest
 *   written bucket complete, and the next run recomputes from the hour before that one, so nothing is
 *   lost; the newest bucket stays the watermark that retention (api/logs/retention.ts) relies on.
 * - On Postgres (and an in-memory SQLite, which no other connection can read) each day is one
 *   `INSERT … SELECT` in the database, in its own transaction.
 */
import { execute, type Store } from '@/db'
import { bucketParameters, FIRST_LOG_HOUR_FROM, upsertBucketValues, UPSERT_BUCKETS_BETWEEN, type QuotaBucket } from '@/db/quota-buckets'
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from '@shared/quota-data'
import { openBucketReader } from './bucket-reader'

/** The logs one read covers: a whole number of hours, so no bucket is split between two reads. */
const CHUNK_SECONDS = SECONDS_PER_DAY
/** Buckets per written transaction. */
const WRITE_BATCH = 500
/**
 * Buckets per statement (7 parameters each). Only two statement texts are ever prepared, this one and
 * a single bucket's for the rest: a text per length would keep up to a hundred prepared statements.
 */
const ROWS_PER_STATEMENT = 100
const UPSERT_MANY = upsertBucketValues(ROWS_PER_STATEMENT)
const UPSERT_ONE = upsertBucketValues(1)

const NEWEST_BUCKET = 'SELECT MAX(created_at) AS newest FROM quota_data'

export type ExportSummary = {
	/** The first hour recomputed (unix seconds; 0 on the first run, which reads every log). */
	from: number
	/** Buckets written or rewritten. */
	buckets: number
}

/** Recomputes and writes the buckets of `from <= created_at < to`; answers how many it wrote. */
type ChunkExporter = { exportChunk(from: number, to: number): Promise<number>; close(): Promise<void> }

/**
 * One export run. `workerUrl` is src/workers/data-export.ts, resolved by the caller (main.ts) so that
 * the compiled binary finds it; it is started only on a SQLite file.
 */
export async function exportQuotaData(store: Store, workerUrl: URL): Promise<ExportSummary> {
	const newest = await newestExportedHour(store)
	const from = newest === undefined ? 0 : newest - SECONDS_PER_HOUR
	let start = await firstLogHour(store, from)
	if (start === undefined) return { from, buckets: 0 }
	const exporter = store.wal ? await offThreadExporter(store, workerUrl, store.wal.file) : inDatabaseExporter(store)
	let buckets = 0
	try {
		while (start !== undefined) {
			const end = start + CHUNK_SECONDS
			buckets += await exporter.exportChunk(start, end)
			start = await firstLogHour(store, end)
		}
	} finally {
		await exporter.close()
	}
	return { from, buckets }
}

/** The hour of the newest exported bucket (the export's watermark), or undefined before the first run wrote one. */
export async function newestExportedHour(store: Store): Promise<number | undefined> {
	const [row] = await store.read<{ newest: number | string | null }>(NEWEST_BUCKET)
	return row?.newest == null ? undefined : Number(row.newest)
}

/** The hour of the oldest consume log at or after `at` (a whole hour), if any: never before `at`, so two reads never overlap. */
async function firstLogHour(store: Store, at: number): Promise<number | undefined> {
	const [row] = await store.read<{ hour: number | string }>(FIRST_LOG_HOUR_FROM, [at])
	return row === undefined ? undefined : Math.max(at, Number(row.hour))
}

function inDatabaseExporter(store: Store): ChunkExporter {
	return {
		exportChunk: (from, to) => store.transaction(function* () {
			return yield* execute(UPSERT_BUCKETS_BETWEEN, [from, to])
		}),
		close: async () => {},
	}
}

async function offThreadExporter(store: Store, workerUrl: URL, file: string): Promise<ChunkExporter> {
	const reader = await openBucketReader(workerUrl, file)
	return {
		async exportChunk(from, to) {
			const buckets = await reader.read(from, to)
			let written = 0
			for (let start = 0; start < buckets.length; start += WRITE_BATCH) {
				written += await writeBuckets(store, buckets.slice(start, start + WRITE_BATCH))
			}
			return written
		},
		close: () => reader.close(),
	}
}

function writeBuckets(store: Store, buckets: QuotaBucket[]) {
	return store.transaction(function* () {
		let written = 0
		let start = 0
		for (; start + ROWS_PER_STATEMENT <= buckets.length; start += ROWS_PER_STATEMENT) {
			written += yield* execute(UPSERT_MANY, bucketParameters(buckets.slice(start, start + ROWS_PER_STATEMENT)))
		}
		for (; start < buckets.length; start++) written += yield* execute(UPSERT_ONE, bucketParameters([buckets[start]!]))
		return written
	})
}
