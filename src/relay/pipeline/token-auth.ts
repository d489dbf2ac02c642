/**
 * Token authentication for relay calls (design §5.1): the key names an enabled, unexpired token
 * with quota, used from an allowed address by an enabled user; `sk-KEY-CHANNELID` pins a channel
 * and is for admins only.
 */
import { and, eq, isNull } from 'drizzle-orm'
import { TOKEN_STATUS } from '@shared/token'
import { ROLE, USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { splitTokenKey, tokenKeyDigest } from '@/api/tokens/keys'
import { effectiveStatus } from '@/api/tokens/status'
import { nowSeconds } from '@/lib/clock'
import { parseAddressList } from '@/lib/ip-allow-list'
import { relayErrors } from '../errors'
import { createTokenCache } from './token-cache'

export interface RelayCaller {
	user: { id: number; username: string; group: string; role: number }
	token: {
		id: number
		name: string
		group: string
		unlimited: boolean
		/** Undefined when the token may use every model. */
		modelLimits: ReadonlySet<string> | undefined
	}
	pinnedChannelId: number | undefined
}

async function loadToken({ store }: Dependencies, digest: string) {
	const { tokens, users } = store.tables
	const [row] = await store.db.select({ token: tokens, user: users }).from(tokens)
		.innerJoin(users, eq(users.id, tokens.userId))
		.where(and(eq(tokens.keyHash, digest), isNull(tokens.deletedAt)))
		.limit(1)
	return row
}

export type TokenAuthenticator = (presented: string | undefined, clientAddress: string) => Promise<RelayCaller>

export function createTokenAuthenticator(dependencies: Dependencies): TokenAuthenticator {
	const cache = createTokenCache<Awaited<ReturnType<typeof loadToken>>>(dependencies.changes)
	return async (presented, clientAddress) => {
		if (!presented) throw relayErrors.missingKey()
		const digest = tokenKeyDigest(dependencies.secrets, presented)
		const row = await cache.get(digest, () => loadToken(dependencies, digest))
		if (!row) throw relayErrors.invalidKey()
		return checkCaller(row, presented, clientAddress)
	}
}

function checkCaller(row: NonNullable<Awaited<ReturnType<typeof loadToken>>>, presented: string, clientAddress: string): RelayCaller {
	const { token, user } = row
	const status = effectiveStatus(token, nowSeconds())
	if (status === TOKEN_STATUS.expired) throw relayErrors.tokenExpired()
	if (status === TOKEN_STATUS.exhausted) throw relayErrors.tokenExhausted()
	if (status !== TOKEN_STATUS.enabled) throw relayErrors.tokenDisabled()
	if (!parseAddressList(token.allowIps).allows(clientAddress)) throw relayErrors.addressNotAllowed()
	if (user.deletedAt !== null || user.status !== USER_STATUS.enabled) throw relayErrors.userDisabled()

	const pin = splitTokenKey(presented).channel
	let pinnedChannelId: number | undefined
	if (pin !== undefined) {
		if (user.role < ROLE.admin) throw relayErrors.channelPinForbidden()
		pinnedChannelId = Number(pin)
		if (!Number.isSafeInteger(pinnedChannelId) || pinnedChannelId <= 0) throw relayErrors.channelNotFound()
	}
	const limits = token.modelLimitsEnabled ? new Set(token.modelLimits.split(',').map((model) => model.trim()).filter(Boolean)) : undefined
	return {
		user: { id: user.id, username: user.username, group: user.group, role: user.role },
		token: { id: token.id, name: token.name, group: token.group, unlimited: token.unlimitedQuota, modelLimits: limits },
		pinnedChannelId,
	}
}

/** The bearer key of an OpenAI-format call. */
export function bearerKey(headers: Headers): string | undefined {
	const authorization = headers.get('authorization')
	if (!authorization) return undefined
	return authorization.replace(/^Bearer\s+/i, '').trim() || undefined
}
