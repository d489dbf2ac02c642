/** Redemption codes: states, limits, messages and the shapes of the redemption calls (docs/specification/tokens-and-money.md#calls). */
import { z } from 'zod'
import { MAX_ROW_ID, pageQuerySchema, rowIdSchema } from './api'
import { MAX_QUOTA, QUOTA_LIMIT_MESSAGES } from './quota-limit'
import { REDEMPTION_CREATE_MAX_COUNT, REDEMPTION_DEFAULT_COUNT, REDEMPTION_DEFAULT_QUOTA, REDEMPTION_NAME_MAX_LENGTH, REDEMPTION_NEVER_EXPIRES } from './redemption-constants'
import { REDEMPTION_MESSAGES } from './messages/redemptions'

export * from './redemption-constants'

export { REDEMPTION_MESSAGES }

const name = z.string({ error: REDEMPTION_MESSAGES.nameLength }).trim().max(REDEMPTION_NAME_MAX_LENGTH, REDEMPTION_MESSAGES.nameLength)
const quota = z.number({ error: REDEMPTION_MESSAGES.quotaInvalid })
	.int(REDEMPTION_MESSAGES.quotaInvalid)
	.min(1, REDEMPTION_MESSAGES.quotaInvalid)
	.max(MAX_QUOTA, QUOTA_LIMIT_MESSAGES.amountLimit)
/** Unix seconds, or 0 for never; whether it lies in the future is the server's business rule. */
const expiredTime = z.number({ error: REDEMPTION_MESSAGES.expiryFormat })
	.int(REDEMPTION_MESSAGES.expiryFormat)
	.min(0, REDEMPTION_MESSAGES.expiryFormat)
	.max(Number.MAX_SAFE_INTEGER, REDEMPTION_MESSAGES.expiryFormat)

/** `POST /api/redemption/`: an empty name becomes the quota as the console formats it. */
export const createRedemptionSchema = z.object({
	name: name.optional().default(''),
	quota: quota.optional().default(REDEMPTION_DEFAULT_QUOTA),
	count: z.number({ error: REDEMPTION_MESSAGES.countInvalid })
		.int(REDEMPTION_MESSAGES.countInvalid)
		.min(1, REDEMPTION_MESSAGES.countInvalid)
		.max(REDEMPTION_CREATE_MAX_COUNT, REDEMPTION_MESSAGES.countTooLarge)
		.optional().default(REDEMPTION_DEFAULT_COUNT),
	expired_time: expiredTime.optional().default(REDEMPTION_NEVER_EXPIRES),
	/** A code that grants this plan instead of quota (its `quota` is then 0); 0: a quota code. */
	plan_id: z.number({ error: REDEMPTION_MESSAGES.planInvalid }).int(REDEMPTION_MESSAGES.planInvalid).min(0, REDEMPTION_MESSAGES.planInvalid)
		.max(MAX_ROW_ID, REDEMPTION_MESSAGES.planInvalid).optional().default(0),
})
export type CreateRedemptionInput = z.infer<typeof createRedemptionSchema>

/**
 * `PUT /api/redemption/`: a field left out keeps its value. `status` is read only with
 * `?status_only=true`, and then nothing else is; the key, creator and use are never writable.
 */
export const updateRedemptionSchema = z.object({
	id: rowIdSchema,
	status: z.number({ error: REDEMPTION_MESSAGES.statusInvalid }).int(REDEMPTION_MESSAGES.statusInvalid).optional(),
	name: name.min(1, REDEMPTION_MESSAGES.nameLength).optional(),
	quota: quota.optional(),
	expired_time: expiredTime.optional(),
})
export type UpdateRedemptionInput = z.infer<typeof updateRedemptionSchema>

export const updateRedemptionQuerySchema = z.object({ status_only: z.stringbool().optional().default(false) })

/** `keyword` is a whole id or part of the name. */
export const redemptionSearchSchema = pageQuerySchema.extend({ keyword: z.string().optional().default('') })

/** `POST /api/user/topup`: the signed-in user redeems a code; answers the quota added. */
export const redeemSchema = z.object({
	key: z.string({ error: REDEMPTION_MESSAGES.keyRequired }).trim()
		.min(1, REDEMPTION_MESSAGES.keyRequired)
		.max(256, REDEMPTION_MESSAGES.invalidCode),
})

export const redemptionViewSchema = z.object({
	id: z.number(),
	/** The admin who created it. */
	user_id: z.number(),
	/** Only ever sent to admins. */
	key: z.string(),
	status: z.number(),
	name: z.string(),
	quota: z.number(),
	created_time: z.number(),
	redeemed_time: z.number(),
	/** 0 until redeemed. */
	used_user_id: z.number(),
	expired_time: z.number(),
	/** The plan the code grants; 0: a quota code. */
	plan_id: z.number(),
})
export type RedemptionView = z.infer<typeof redemptionViewSchema>
