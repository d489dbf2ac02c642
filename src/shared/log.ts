/** Usage logs: entry types (seed 002 §4) and the shapes of the log calls of seed 002 §7. */
import { z } from 'zod'
import { pageQuerySchema } from './api'

/** Log entry types (seed 002 §4). */
export const LOG_TYPE = { unknown: 0, topUp: 1, consume: 2, manage: 3, system: 4 } as const
export type LogType = (typeof LOG_TYPE)[keyof typeof LOG_TYPE]

/** rpm and tpm count the consume entries of this many last seconds. */
export const LOG_STAT_WINDOW_SECONDS = 60

/**
 * The console's default time range (seed 002 §9 "from a default start to one hour ahead", §2 "recent
 * 3 days"): three days back rather than the start of today, which would need the viewer's time zone.
 */
export const LOG_DEFAULT_LOOKBACK_SECONDS = 3 * 24 * 60 * 60
export const LOG_DEFAULT_LOOKAHEAD_SECONDS = 60 * 60
/** The cleanup time offered by default: this many months ago (seed 000 §9). */
export const LOG_CLEANUP_DEFAULT_MONTHS_AGO = 1

/** Use-time tag colours (seed 002 §9): under `fast` seconds green, under `slow` orange, else red. */
export const USE_TIME_TIERS_SECONDS = { fast: 101, slow: 300 } as const
/** First-token time (`other.frt`, ms) tag colours: under `fast` green, under `slow` orange, else red. */
export const FIRST_TOKEN_TIERS_MS = { fast: 3_000, slow: 10_000 } as const

export const LOG_MESSAGES = {
	chooseTime: 'please choose log time',
} as const

const optionalNumber = z.coerce.number().int().min(0).optional()
const optionalText = z.string().trim().optional().default('')

/**
 * Filters of the log list and stats. 0 (or an empty value) in `type`, `channel` and the time bounds
 * means no filter. `username` and `channel` are read for admins only.
 */
export const logQuerySchema = pageQuerySchema.extend({
	type: optionalNumber,
	username: optionalText,
	token_name: optionalText,
	model_name: optionalText,
	start_timestamp: optionalNumber,
	end_timestamp: optionalNumber,
	channel: optionalNumber,
	group: optionalText,
})
export type LogQuery = z.infer<typeof logQuerySchema>

/** A log entry as an ordinary user sees it: no channel, and `other` without `admin_info`. */
export const logEntrySchema = z.object({
	id: z.number(),
	created_at: z.number(),
	type: z.number(),
	content: z.string(),
	username: z.string(),
	token_name: z.string(),
	model_name: z.string(),
	quota: z.number(),
	prompt_tokens: z.number(),
	completion_tokens: z.number(),
	use_time: z.number(),
	is_stream: z.boolean(),
	user_id: z.number(),
	group: z.string(),
	request_id: z.string(),
	/** The JSON details (ratios, first-token time, …); `{}` when there are none. */
	other: z.record(z.string(), z.unknown()),
})
export type LogEntry = z.infer<typeof logEntrySchema>

export const adminLogEntrySchema = logEntrySchema.extend({
	/** The channel's id. */
	channel: z.number(),
	channel_name: z.string(),
})
export type AdminLogEntry = z.infer<typeof adminLogEntrySchema>

/** quota: spent by the matching consume entries; rpm, tpm: requests and tokens of the last minute. */
export const logStatSchema = z.object({ quota: z.number(), rpm: z.number(), tpm: z.number() })
export type LogStat = z.infer<typeof logStatSchema>
