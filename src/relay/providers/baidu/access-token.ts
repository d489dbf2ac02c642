/**
 * Baidu's OAuth access token: exchanged for `APIKey|SecretKey` at `/oauth/2.0/token` and cached per
 * key until shortly before it expires (Baidu issues 30-day tokens).
 */
import { TokenCache } from '../shared/token-cache'
import type { AdaptorContext, UpstreamChannel } from '../types'

const MILLISECONDS_PER_SECOND = 1000
/** Renew this long before the stated expiry, so a token never expires mid-call. */
const RENEW_MARGIN_MS = 60 * 60 * 1000

const cache = new TokenCache()

class BaiduKeyError extends Error {}

function baiduCredentials(key: string) {
	const [apiKey, secretKey] = key.split('|')
	if (!apiKey || !secretKey) throw new BaiduKeyError('a Baidu key is APIKey|SecretKey')
	return { apiKey: apiKey.trim(), secretKey: secretKey.trim() }
}

export async function accessToken(channel: UpstreamChannel, context: AdaptorContext): Promise<string> {
	const { apiKey, secretKey } = baiduCredentials(channel.key)
	return cache.get(`${channel.baseUrl}|${apiKey}|${secretKey}`, context.now(), async () => {
		const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: apiKey, client_secret: secretKey })
		const answer = await context.fetchJson(`${channel.baseUrl}/oauth/2.0/token?${query}`, { method: 'POST', headers: { 'content-type': 'application/json' } }) as {
			access_token?: string; expires_in?: number; error?: string; error_description?: string
		}
		if (!answer.access_token) throw new BaiduKeyError(`Baidu refused the key: ${answer.error_description ?? answer.error ?? 'no access token'}`)
		const lifetime = (answer.expires_in ?? 0) * MILLISECONDS_PER_SECOND
		return { token: answer.access_token, renewAt: context.now() + Math.max(0, lifetime - RENEW_MARGIN_MS) }
	})
}

/** Baidu said a token is no longer valid (error codes 110, 111): the next call fetches new ones. */
export function forgetAccessTokens() {
	cache.clear()
}
