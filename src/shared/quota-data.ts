/**
 * The usage dashboard's data (seed 002 §2 "Dashboard", seed 000 §9): hourly buckets of consumption
 * per user and model in `quota_data`, read through `GET /api/data/self` and, for admins, `GET /api/data/`.
 */
import { z } from 'zod'
import { DATA_EXPORT_GRANULARITIES } from './option'

export { DATA_EXPORT_GRANULARITIES }
export type DataGranularity = (typeof DATA_EXPORT_GRANULARITIES)[number]

export const SECONDS_PER_HOUR = 3600
export const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR

/** The length of one bucket of each granularity, in seconds. */
export const GRANULARITY_SECONDS: Record<DataGranularity, number> = {
	hour: SECONDS_PER_HOUR,
	day: SECONDS_PER_DAY,
	week: 7 * SECONDS_PER_DAY,
}

/**
 * The range shown when none is asked for, by granularity: a day of hours, a week of days, a month of
 * weeks (what the peer console opens with); it ends an hour ahead so the current hour is in.
 */
export const DEFAULT_RANGE_SECONDS: Record<DataGranularity, number> = {
	hour: SECONDS_PER_DAY,
	day: 7 * SECONDS_PER_DAY,
	week: 30 * SECONDS_PER_DAY,
}
export const DEFAULT_RANGE_LOOKAHEAD_SECONDS = SECONDS_PER_HOUR

/** The API's own default when a bound is missing: the last seven days up to now. */
export const DATA_DEFAULT_LOOKBACK_SECONDS = 7 * SECONDS_PER_DAY
/** One answer covers at most this span: every bucket of every user and model in it comes back. */
export const DATA_MAX_RANGE_SECONDS = 366 * SECONDS_PER_DAY

export const QUOTA_DATA_MESSAGES = {
	disabled: 'the data dashboard is not enabled (DataExportEnabled)',
	badRange: 'the start time must not be after the end time',
	rangeTooLong: 'the time range must not exceed 366 days',
} as const

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
