/**
 * The usage dashboard's data (docs/specification/logs-and-dashboard.md#the-usage-dashboard): hourly buckets of consumption
 * per user and model in `quota_data`, read through `GET /api/data/self` and, for admins, `GET /api/data/`.
 */
import { z } from 'zod'
import { DATA_MAX_RANGE_SECONDS } from './quota-data-constants'
import { QUOTA_DATA_MESSAGES } from './messages/quota'

export * from './quota-data-constants'

export { QUOTA_DATA_MESSAGES }

const optionalTimestamp = z.coerce.number().int().min(0).optional()

/** `start_timestamp`, `end_timestamp` in unix seconds (0 or missing: the default); `username` for admins. */
export const quotaDataQuerySchema = z.object({
	start_timestamp: optionalTimestamp,
	end_timestamp: optionalTimestamp,
	username: z.string().trim().max(64).optional().default(''),
})
export type QuotaDataQuery = z.infer<typeof quotaDataQuerySchema>

/** One bucket: a user's calls of one model in the hour starting at `created_at` (unix seconds). */
export const quotaDataSchema = z.object({
	id: z.number(),
	user_id: z.number(),
	username: z.string(),
	model_name: z.string(),
	created_at: z.number(),
	/** Prompt plus completion tokens. */
	token_used: z.number(),
	/** Calls. */
	count: z.number(),
	quota: z.number(),
})
export type QuotaData = z.infer<typeof quotaDataSchema>
