/** API tokens: states, limits, messages and the shapes of the token calls (docs/specification/tokens-and-money.md#calls). */
import { z } from 'zod'
import { pageQuerySchema, rowIdSchema } from './api'
import { MAX_QUOTA, QUOTA_LIMIT_MESSAGES } from './quota-limit'
import { TOKEN_BATCH_NAME_MAX_LENGTH, TOKEN_QUOTA_WINDOWS_MAX, TOKEN_CONCURRENCY_LIMIT_MAX, TOKEN_CREATE_MAX_COUNT, TOKEN_DEFAULT_REMAIN_QUOTA, TOKEN_NAME_MAX_LENGTH, TOKEN_NAME_SUFFIX_LENGTH, TOKEN_NEVER_EXPIRES } from './token-constants'
import { TOKEN_MESSAGES } from './messages/tokens'
import { rpdLimit, rpmLimit, tpmLimit } from './rate-limit'
import { planWindowSchema, subscriptionWindowSchema } from './plan'

export * from './token-constants'

const GROUP_MAX_LENGTH = 64

export { TOKEN_MESSAGES }

const allowedAddress = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()])

/** The non-empty lines of an IP whitelist, trimmed: each an IPv4 or IPv6 address or CIDR range. */
export function allowIpLines(text: string): string[] {
	return text.split('\n').map((line) => line.trim()).filter(Boolean)
}

/** Comma-separated model names, trimmed, without blanks or repeats. */
export function modelLimitNames(text: string): string[] {
	return [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))]
}

const name = z.string({ error: TOKEN_MESSAGES.nameRequired }).trim()
	.min(1, TOKEN_MESSAGES.nameRequired)
	.max(TOKEN_NAME_MAX_LENGTH, TOKEN_MESSAGES.nameTooLong)
const remainQuota = z.number({ error: TOKEN_MESSAGES.quotaNotInteger })
	.int(TOKEN_MESSAGES.quotaNotInteger)
	.min(0, TOKEN_MESSAGES.quotaNegative)
	.max(MAX_QUOTA, QUOTA_LIMIT_MESSAGES.amountLimit)
/** Unix seconds, or -1 for never; whether it lies in the future is the server's business rule. */
const expiredTime = z.number({ error: TOKEN_MESSAGES.expiryFormat })
	.int(TOKEN_MESSAGES.expiryFormat)
	.max(Number.MAX_SAFE_INTEGER, TOKEN_MESSAGES.expiryFormat)
	.refine((time) => time === TOKEN_NEVER_EXPIRES || time > 0, TOKEN_MESSAGES.expiryFormat)
const modelLimits = z.string().transform((text) => modelLimitNames(text).join(','))
const allowIps = z.string()
	.superRefine((text, context) => {
		const bad = allowIpLines(text).find((line) => !allowedAddress.safeParse(line).success)
		if (bad !== undefined) context.addIssue({ code: 'custom', message: TOKEN_MESSAGES.allowIpInvalid, params: { line: bad.slice(0, 64) } })
	})
	.transform((text) => allowIpLines(text).join('\n'))
/** Calls in flight at once; 0 means no limit. */
const concurrencyLimit = z.number({ error: TOKEN_MESSAGES.concurrencyLimitInvalid })
	.int(TOKEN_MESSAGES.concurrencyLimitInvalid)
	.min(0, TOKEN_MESSAGES.concurrencyLimitInvalid)
	.max(TOKEN_CONCURRENCY_LIMIT_MAX, TOKEN_MESSAGES.concurrencyLimitInvalid)
/** The token's own call limits (requests and tokens a minute, requests a day); 0 means none. */
const rateLimits = { rpm_limit: rpmLimit, tpm_limit: tpmLimit, rpd_limit: rpdLimit }
/**
 * Spend limits over rolling windows, shaped like a plan's windows (`{seconds, quota}`, quota in
 * quota units): every call's hold must fit each, whatever pays. Empty: none.
 */
const quotaWindows = z.array(planWindowSchema, { error: TOKEN_MESSAGES.quotaWindowCount })
	.max(TOKEN_QUOTA_WINDOWS_MAX, TOKEN_MESSAGES.quotaWindowCount)
	.refine((windows) => new Set(windows.map((window) => window.seconds)).size === windows.length, TOKEN_MESSAGES.quotaWindowRepeated)
/** Empty means the owner's own group. */
const group = z.string().trim().max(GROUP_MAX_LENGTH, TOKEN_MESSAGES.groupUnusable)

export const createTokenSchema = z.object({
	name,
	remain_quota: remainQuota.optional().default(TOKEN_DEFAULT_REMAIN_QUOTA),
	unlimited_quota: z.boolean().optional().default(false),
	expired_time: expiredTime.optional().default(TOKEN_NEVER_EXPIRES),
	model_limits_enabled: z.boolean().optional().default(false),
	model_limits: modelLimits.optional().default(''),
	allow_ips: allowIps.optional().default(''),
	group: group.optional().default(''),
	concurrency_limit: concurrencyLimit.optional().default(0),
	rpm_limit: rateLimits.rpm_limit.optional().default(0),
	tpm_limit: rateLimits.tpm_limit.optional().default(0),
	rpd_limit: rateLimits.rpd_limit.optional().default(0),
	response_cache_enabled: z.boolean().optional().default(true),
	quota_windows: quotaWindows.optional().default([]),
	count: z.number({ error: TOKEN_MESSAGES.countInvalid })
		.int(TOKEN_MESSAGES.countInvalid)
		.min(1, TOKEN_MESSAGES.countInvalid)
		.max(TOKEN_CREATE_MAX_COUNT, TOKEN_MESSAGES.countTooLarge)
		.optional().default(1),
}).superRefine((body, context) => {
	if (body.count > 1 && body.name.length > TOKEN_BATCH_NAME_MAX_LENGTH) {
		context.addIssue({ code: 'custom', path: ['name'], message: TOKEN_MESSAGES.batchNameTooLong })
	}
})
export type CreateTokenInput = z.infer<typeof createTokenSchema>

/**
 * `PUT /api/token/`: a field left out keeps its value. `status` is read only with
 * `?status_only=true`, and then nothing else is; `used_quota` and the owner are never writable.
 */
export const updateTokenSchema = z.object({
	id: rowIdSchema,
	status: z.number({ error: TOKEN_MESSAGES.statusInvalid }).int(TOKEN_MESSAGES.statusInvalid).optional(),
	name: name.optional(),
	remain_quota: remainQuota.optional(),
	unlimited_quota: z.boolean().optional(),
	expired_time: expiredTime.optional(),
	model_limits_enabled: z.boolean().optional(),
	model_limits: modelLimits.optional(),
	allow_ips: allowIps.optional(),
	group: group.optional(),
	concurrency_limit: concurrencyLimit.optional(),
	rpm_limit: rateLimits.rpm_limit.optional(),
	tpm_limit: rateLimits.tpm_limit.optional(),
	rpd_limit: rateLimits.rpd_limit.optional(),
	response_cache_enabled: z.boolean().optional(),
	quota_windows: quotaWindows.optional(),
})
export type UpdateTokenInput = z.infer<typeof updateTokenSchema>

export const updateTokenQuerySchema = z.object({ status_only: z.stringbool().optional().default(false) })

/** `keyword` is part of the name; `token` is a whole key, with or without `sk-`. */
export const tokenSearchSchema = pageQuerySchema.extend({
	keyword: z.string().optional().default(''),
	token: z.string().optional().default(''),
})

export const tokenViewSchema = z.object({
	id: z.number(),
	name: z.string(),
	/** `sk-` and the key; only ever sent to the token's owner. */
	key: z.string(),
	/** The effective state: an enabled token past its expiry or out of quota reads as expired or exhausted. */
	status: z.number(),
	remain_quota: z.number(),
	used_quota: z.number(),
	unlimited_quota: z.boolean(),
	expired_time: z.number(),
	created_time: z.number(),
	accessed_time: z.number(),
	model_limits_enabled: z.boolean(),
	model_limits: z.string(),
	allow_ips: z.string(),
	group: z.string(),
	/** Calls in flight at once; 0: no limit. */
	concurrency_limit: z.number(),
	/** Requests a minute, tokens a minute, requests a day; 0: no limit. */
	rpm_limit: z.number(),
	tpm_limit: z.number(),
	rpd_limit: z.number(),
	/** Whether the token's calls use the response cache when the operator turned it on. */
	response_cache_enabled: z.boolean(),
	/** The spend windows with their current periods (`resets_at` null: none started; it starts at the next call). */
	quota_windows: z.array(subscriptionWindowSchema),
})
export type TokenView = z.infer<typeof tokenViewSchema>
