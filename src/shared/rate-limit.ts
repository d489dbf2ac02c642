/**
 * Call limits at every level: a token's and a user's own (`rpm_limit`, `tpm_limit`, `rpd_limit`,
 * `concurrency_limit` fields), and per group and per model (the `GroupRateLimits` and
 * `ModelRateLimits` options, `{name: {rpm, tpm, rpd, concurrency}}`). Non-negative whole numbers;
 * 0 (or absent) sets none at that level.
 */
import { z } from 'zod'
import { CONCURRENCY_LIMIT_MAX, RATE_LIMIT_MAX } from './rate-limit-constants'
import { RATE_LIMIT_MESSAGES } from './messages/rate-limits'

export * from './rate-limit-constants'
export { RATE_LIMIT_MESSAGES }

const limit = (message: string, max: number) => z.number({ error: message }).int(message).min(0, message).max(max, message)

export const rpmLimit = limit(RATE_LIMIT_MESSAGES.rpmInvalid, RATE_LIMIT_MAX)
export const tpmLimit = limit(RATE_LIMIT_MESSAGES.tpmInvalid, RATE_LIMIT_MAX)
export const rpdLimit = limit(RATE_LIMIT_MESSAGES.rpdInvalid, RATE_LIMIT_MAX)
export const concurrencyLimit = limit(RATE_LIMIT_MESSAGES.concurrencyInvalid, CONCURRENCY_LIMIT_MAX)

/** The limit fields of a token or user edit: each optional (a field left out keeps its value). */
export const rateLimitFieldsSchema = z.object({
	rpm_limit: rpmLimit.optional(),
	tpm_limit: tpmLimit.optional(),
	rpd_limit: rpdLimit.optional(),
	concurrency_limit: concurrencyLimit.optional(),
})
export type RateLimitFields = z.infer<typeof rateLimitFieldsSchema>

/** One group's or model's limits in the options. */
export const rateLimitLevelSchema = z.strictObject({
	rpm: rpmLimit.optional(),
	tpm: tpmLimit.optional(),
	rpd: rpdLimit.optional(),
	concurrency: concurrencyLimit.optional(),
})
export type RateLimitLevel = z.infer<typeof rateLimitLevelSchema>

