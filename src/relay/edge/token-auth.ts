/**
 * Token authentication for relay calls: the key names an enabled, unexpired token
 * with quota, used from an allowed address by an enabled user; `sk-KEY-CHANNELID` pins a channel
 * and is for admins only. The caller carries the token's and the user's own call limits, and the
 * group an active plan puts the user in.
 */
import { TOKEN_STATUS } from '@shared/token'
import { ROLE, USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { splitTokenKey, tokenKeyDigest } from '@/auth/token-keys'
import { effectiveStatus } from '@/auth/token-status'
import { nowSeconds } from '@/lib/clock'
import { parseAddressList, type AddressList } from '@/lib/ip-allow-list'
import { callLimitsOf, type CallLimits, type RelayCaller } from '../caller'
import { relayErrors } from '../errors'
import { createTokenCache } from './token-cache'
import { readTokenWindows } from '@/billing/token-windows'

/** Only what the checks below read, as one prepared statement: this runs on most relay calls. */
const TOKEN_WITH_OWNER = `SELECT t.id, t.user_id, t.status, t.name, t.expired_time, t.remain_quota, t.unlimited_quota,
	t.model_limits_enabled, t.model_limits, t.allow_ips, t."group" AS token_group, t.concurrency_limit, t.rpm_limit, t.tpm_limit, t.rpd_limit, t.response_cache_enabled, t.quota_windows,
	u.username, u."group" AS user_group, u.role, u.status AS user_status, u.deleted_at,
	u.rpm_limit AS user_rpm_limit, u.tpm_limit AS user_tpm_limit, u.rpd_limit AS user_rpd_limit, u.concurrency_limit AS user_concurrency_limit
	FROM tokens t JOIN users u ON u.id = t.user_id
	WHERE t.key_hash = $1 AND t.deleted_at IS NULL`

type TokenRow = {
	id: number; user_id: number; status: number; name: string; expired_time: number; remain_quota: number
	unlimited_quota: boolean | number; model_limits_enabled: boolean | number; model_limits: string; allow_ips: string
	token_group: string; concurrency_limit: number; rpm_limit: number; tpm_limit: number; rpd_limit: number; response_cache_enabled: boolean | number; quota_windows: string
	username: string; user_group: string; role: number; user_status: number; deleted_at: number | null
	user_rpm_limit: number; user_tpm_limit: number; user_rpd_limit: number; user_concurrency_limit: number
}

/** A token row with what the checks derive from it, built once per cache entry. */
type KnownToken = {
	row: TokenRow
	limits: { status: number; expiredTime: number; remainQuota: number; unlimitedQuota: boolean }
	addresses: AddressList
	modelLimits: ReadonlySet<string> | undefined
	tokenLimits: CallLimits
	userLimits: CallLimits
	quotaWindows: readonly { seconds: number; quota: number }[]
}

async function loadToken({ store }: Dependencies, digest: string): Promise<KnownToken | undefined> {
	const [row] = await store.read<TokenRow>(TOKEN_WITH_OWNER, [digest])
	if (!row) return undefined
	return {
		row,
		limits: { status: row.status, expiredTime: Number(row.expired_time), remainQuota: Number(row.remain_quota), unlimitedQuota: Boolean(row.unlimited_quota) },
		addresses: parseAddressList(row.allow_ips),
		modelLimits: row.model_limits_enabled ? new Set(row.model_limits.split(',').map((model) => model.trim()).filter(Boolean)) : undefined,
		tokenLimits: callLimitsOf(row),
		quotaWindows: readTokenWindows(row.quota_windows ?? '[]'),
		userLimits: callLimitsOf({ rpm_limit: row.user_rpm_limit, tpm_limit: row.user_tpm_limit, rpd_limit: row.user_rpd_limit, concurrency_limit: row.user_concurrency_limit }),
	}
}

export type TokenAuthenticator = (presented: string | undefined, clientAddress: string) => Promise<RelayCaller>

export function createTokenAuthenticator(dependencies: Dependencies): TokenAuthenticator {
	const cache = createTokenCache<KnownToken>(dependencies.changes)
	return async (presented, clientAddress) => {
		if (!presented) throw relayErrors.missingKey()
		const digest = tokenKeyDigest(dependencies.secrets, presented)
		const known = await cache.get(digest, () => loadToken(dependencies, digest))
		if (!known) throw relayErrors.invalidKey()
		const caller = checkCaller(known, presented, clientAddress)
		// An active plan with a group puts its subscriber in that group.
		const planGroup = dependencies.subscriptions.groupOf(caller.user.id)
		if (planGroup) caller.user.group = planGroup
		return caller
	}
}

function checkCaller({ row, limits, addresses, modelLimits, tokenLimits, userLimits, quotaWindows }: KnownToken, presented: string, clientAddress: string): RelayCaller {
	const status = effectiveStatus(limits, nowSeconds())
	if (status === TOKEN_STATUS.expired) throw relayErrors.tokenExpired()
	if (status === TOKEN_STATUS.exhausted) throw relayErrors.tokenExhausted()
	if (status !== TOKEN_STATUS.enabled) throw relayErrors.tokenDisabled()
	if (!addresses.allows(clientAddress)) throw relayErrors.addressNotAllowed()
	if (row.deleted_at !== null || row.user_status !== USER_STATUS.enabled) throw relayErrors.userDisabled()

	const pin = splitTokenKey(presented).channel
	let pinnedChannelId: number | undefined
	if (pin !== undefined) {
		if (row.role < ROLE.admin) throw relayErrors.channelPinForbidden()
		pinnedChannelId = Number(pin)
		if (!Number.isSafeInteger(pinnedChannelId) || pinnedChannelId <= 0) throw relayErrors.channelNotFound()
	}
	return {
		user: { id: Number(row.user_id), username: row.username, group: row.user_group, role: row.role, limits: userLimits },
		token: { id: Number(row.id), name: row.name, group: row.token_group, unlimited: limits.unlimitedQuota, modelLimits, limits: tokenLimits, responseCache: Boolean(row.response_cache_enabled), quotaWindows },
		pinnedChannelId,
	}
}

/** The bearer key of an OpenAI-format call. */
export function bearerKey(headers: Headers): string | undefined {
	const authorization = headers.get('authorization')
	if (!authorization) return undefined
	return authorization.replace(/^Bearer\s+/i, '').trim() || undefined
}
