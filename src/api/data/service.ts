/** Reading the dashboard's usage buckets: one user's, or everyone's for admins (docs/specification/logs-and-dashboard.md#the-usage-dashboard). */
import { and, asc, eq, gte, lte, type SQL } from 'drizzle-orm'
import { DATA_DEFAULT_LOOKBACK_SECONDS, DATA_MAX_RANGE_SECONDS, QUOTA_DATA_MESSAGES, type QuotaData, type QuotaDataQuery } from '@shared/quota-data'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { badRequest, refused } from '../errors'
import { withLiveBuckets } from './live-buckets'

/** `userId` pins one user (the self call); otherwise `username` may pick one. */
type QuotaDataScope = { userId?: number }

/**
 * The buckets whose hour starts within the range, oldest first. A missing end is now, a missing
 * start seven days before the end (the peer answers nothing without both; the console always sends both).
 * The hours the export has not reached yet come from the log (live-buckets.ts).
 */
export async function listQuotaData({ store, options }: Dependencies, query: QuotaDataQuery, scope: QuotaDataScope): Promise<QuotaData[]> {
	if (!options.get('DataExportEnabled')) throw refused(QUOTA_DATA_MESSAGES.disabled)
	const end = query.end_timestamp || nowSeconds()
	const start = query.start_timestamp || Math.max(0, end - DATA_DEFAULT_LOOKBACK_SECONDS)
	if (start > end) throw badRequest(QUOTA_DATA_MESSAGES.badRange)
	if (end - start > DATA_MAX_RANGE_SECONDS) throw badRequest(QUOTA_DATA_MESSAGES.rangeTooLong)

	const { quotaData } = store.tables
	const conditions: SQL[] = [gte(quotaData.createdAt, start), lte(quotaData.createdAt, end)]
	if (scope.userId !== undefined) conditions.push(eq(quotaData.userId, scope.userId))
	else if (query.username) conditions.push(eq(quotaData.username, query.username))
	const buckets = await store.db.select().from(quotaData).where(and(...conditions))
		.orderBy(asc(quotaData.createdAt), asc(quotaData.modelName), asc(quotaData.userId))
	const stored = buckets.map((bucket) => ({
		id: bucket.id,
		user_id: bucket.userId,
		username: bucket.username,
		model_name: bucket.modelName,
		created_at: bucket.createdAt,
		token_used: bucket.tokenUsed,
		count: bucket.count,
		quota: bucket.quota,
	}))
	return withLiveBuckets(store, stored, start, end, scope.userId !== undefined ? { userId: scope.userId } : { username: query.username }, nowSeconds())
}
