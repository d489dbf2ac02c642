/**
 * `--with-logs`: new-api's `quota_data` (model/usedata.go), the hourly usage buckets behind the
 * dashboard, so the usage page shows the past too. Ferry keeps one bucket per user, model and
 * hour; rows new-api wrote twice for one bucket are added together.
 */
import type { Store, Tables } from '@/db'
import type { ReportSection } from './report'
import type { SourceDatabase } from './source'
import { integer, outOfRange, text, unixSeconds } from './values'
import { PAGE_SIZE, reportRowsWithoutId } from './plan'
import { insertRows } from '@/db/bulk-insert'

type Bucket = Tables['quotaData']['$inferInsert'] & { tokenUsed: number; count: number; quota: number }

/** Without a store (a dry run) the buckets are only read and counted. */
export async function importQuotaData(source: SourceDatabase, store: Store | undefined, report: ReportSection, progress: (line: string) => void) {
	if (!await source.hasTable('quota_data')) {
		report.note('the source has no such table: nothing to import')
		return
	}
	await reportRowsWithoutId(source, 'quota_data', report)
	const buckets = new Map<string, Bucket>()
	for await (const page of source.pages('quota_data', PAGE_SIZE)) {
		for (const row of page) {
			report.read += 1
			const bucket: Bucket = {
				userId: integer(row, 'user_id'),
				username: text(row, 'username'),
				modelName: text(row, 'model_name'),
				createdAt: unixSeconds(row, 'created_at'),
				tokenUsed: integer(row, 'token_used'),
				count: integer(row, 'count'),
				quota: integer(row, 'quota'),
			}
			const key = JSON.stringify([bucket.userId, bucket.modelName, bucket.createdAt])
			const same = buckets.get(key)
			if (!same) {
				buckets.set(key, bucket)
				continue
			}
			same.tokenUsed += bucket.tokenUsed
			same.count += bucket.count
			same.quota += bucket.quota
			report.note('rows for the same user, model and hour added together')
		}
	}
	const rows: Bucket[] = []
	for (const bucket of buckets.values()) {
		const problem = outOfRange(bucket)
		if (problem) report.skip(problem, `user ${bucket.userId} ${bucket.modelName} at ${bucket.createdAt}`)
		else rows.push(bucket)
	}
	await store?.transaction(function* (_tx, tables) {
		yield* insertRows(tables.quotaData, rows)
	})
	report.imported = rows.length
	progress(`quota_data: ${report.read} read, ${report.imported} buckets imported`)
}
