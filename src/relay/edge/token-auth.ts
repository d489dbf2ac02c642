/**
 * Token authentication for relay calls: the key names an enabled, unexpired token
 * with quota, used from an allowed address by an enabled user; `sk-KEY-CHANNELID` pins a channel
 * and is for admins only.
 */
import { TOKEN_STATUS } from '@shared/token'
import { ROLE, USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { splitTokenKey, tokenKeyDigest } from '@/auth/token-keys'
import { effectiveStatus } from '@/auth/token-status'
import { nowSeconds } from '@/lib/clock'
import { parseAddressList, type AddressList } from '@/lib/ip-allow-list'
import type { RelayCaller } from '../caller'
import { relayErrors } from '../errors'
import { createTokenCache } from './token-cache'

/** Only what the checks below read, as one prepared statement: this runs on most relay calls. */
const TOKEN_WITH_OWNER = `SELECT t.id, t.user_id, t.status, t.name, t.expired_time, t.remain_quota, t.unlimited_quota,
	t.model_limits_enabled, t.model_limits, t.allow_ips, t."group" AS token_group, t.concurrency_limit, t.response_cache_enabled,
	u.username, u."group" AS user_group, u.role, u.status AS user_status, u.deleted_at
	FROM tokens t JOIN users u ON u.id = t.user_id
	WHERE t.key_hash = $1 AND t.deleted_at IS NULL`

type TokenRow = {
	id: number; user_id: number; status: number; name: string; expired_time: number; remain_quota: number
	unlimited_quota: boolean | number; model_limits_enabled: boolean | number; model_limits: string; allow_ips: string
	token_group: string; concurrency_limit: number; response_cache_enabled: boolean | number; username: string; user_group: string; role: number; user_status: number; deleted_at: number | null
}

/** A token row with what the checks derive from it, built once per cache entry. */
type KnownToken = {
	row: TokenRow
	limits: { status: number; expiredTime: number; remainQuota: number; unlimitedQuota: boolean }
	addresses: AddressList
	modelLimits: ReadonlySet<string> | undefined
}

async function loadToken({ store }: Dependencies, digest: string): Promise<KnownToken | undefined> {
	const [row] = await store.read<TokenRow>(TOKEN_WITH_OWNER, [digest])
	if (!row) return undefined
	return {
		row,
		limits: { status: row.status, expiredTime: Number(row.expired_time), remainQuota: Number(row.remain_quota), unlimitedQuota: Boolean(row.unlimited_quota) },
		addresses: parseAddressList(row.allow_ips),
		modelLimits: row.model_limits_enabled ? new Set(row.model_limits.split(',').map((model) => model.trim()).filter(Boolean)) : undefined,
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
		return checkCaller(known, presented, clientAddress)
	}
}

function checkCaller({ row, limits, addresses, modelLimits }: KnownToken, presented: string, clientAddress: string): RelayCaller {
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
		user: { id: Number(row.user_id), username: row.username, group: row.user_group, role: row.role },
		token: { id: Number(row.id), name: row.name, group: row.token_group, unlimited: limits.unlimitedQuota, modelLimits, concurrencyLimit: Number(row.concurrency_limit), responseCache: Boolean(row.response_cache_enabled) },
		pinnedChannelId,
	}
}

/** The bearer key of an OpenAI-format call. */
export function bearerKey(headers: Headers): string | undefined {
	const authorization = headers.get('authorization')
	if (!authorization) return undefined
	return authorization.replace(/^Bearer\s+/i, '').trim() || undefined
}
