/** Usage logs: entry types (docs/specification/logs-and-dashboard.md#log-lines) and the shapes of the log calls (docs/specification/logs-and-dashboard.md#calls). */
import { z } from 'zod'
import { pageQuerySchema } from './api'
import { LOG_MESSAGES } from './messages/logs'

export * from './log-constants'

export { LOG_MESSAGES }

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
	/** One call's entries (the `x-ferry-request-id` its answer carried): the playground reads its reply's charge. */
	request_id: optionalText,
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
	/** The subscription that paid a consume entry; 0: the wallet. */
	subscription_id: z.number(),
	/** The JSON details (ratios, first-token time, …); `{}` when there are none. */
	other: z.record(z.string(), z.unknown()),
})
export type LogEntry = z.infer<typeof logEntrySchema>

export const adminLogEntrySchema = logEntrySchema.extend({
	/** The channel's id. */
	channel: z.number(),
	channel_name: z.string(),
	/** What the call cost the operator (quota); null: the channel's cost is unknown. */
	cost: z.number().nullable(),
})
export type AdminLogEntry = z.infer<typeof adminLogEntrySchema>

/** quota: spent by the matching consume entries; rpm, tpm: requests and tokens of the last minute. */
export const logStatSchema = z.object({ quota: z.number(), rpm: z.number(), tpm: z.number() })
export type LogStat = z.infer<typeof logStatSchema>
