/**
 * The margin report (`GET /api/data/margin`, admins): what calls brought in and what they cost
 * the operator, grouped by channel, model, user or day (UTC), in quota.
 *
 * `revenue` is money received: what wallets paid for calls, plus plan sales (in the user and day
 * groupings by buyer and day of sale; in the channel and model groupings as one row of their own,
 * `key` "plans", which no channel or model earned). Calls a plan paid bring no revenue of their
 * own (the plan's price did): their list-price value is `plan_quota`. `cost` sums the calls'
 * recorded cost; `uncosted_calls` counts calls on channels whose cost is unknown.
 */
import { z } from 'zod'
import { MARGIN_GROUPS } from './margin-constants'

export * from './margin-constants'

const timestamp = z.coerce.number().int().min(0).optional()

export const marginQuerySchema = z.object({
	start_timestamp: timestamp,
	end_timestamp: timestamp,
	group_by: z.enum(MARGIN_GROUPS).optional().default('day'),
})
export type MarginQuery = z.infer<typeof marginQuerySchema>

export const marginRowSchema = z.object({
	/** The channel id, model name, user id or day (unix seconds of its start, UTC), as text. */
	key: z.string(),
	/** The channel's or user's name; empty for models and days. */
	name: z.string(),
	revenue: z.number(),
	cost: z.number(),
	margin: z.number(),
	calls: z.number(),
	plan_quota: z.number(),
	uncosted_calls: z.number(),
})
export type MarginRow = z.infer<typeof marginRowSchema>
