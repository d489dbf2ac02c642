/**
 * OAuth access tokens for a service account (Google's "service account" flow): a JWT signed with
 * the account's RSA key (RS256) is exchanged at the token endpoint for a bearer token that lasts
 * about an hour. Tokens are cached per service account until shortly before they expire.
 */
import { createPrivateKey } from 'node:crypto'
import { TokenCache, type IssuedToken } from '../shared/token-cache'
import type { AdaptorContext } from '../types'
import type { ServiceAccount } from './service-account'

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
const ASSERTION_LIFETIME_SECONDS = 3600
/** A token this close to expiry is replaced, so a slow call never carries an expired one. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000
const MILLISECONDS_PER_SECOND = 1000
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/**
 * The signed assertion: `iss` is the account, `aud` the token endpoint, valid for an hour from `now`.
 * The key is read by node:crypto, which takes both PEM forms (PKCS#8 as Google issues it, and PKCS#1).
 */
async function signedAssertion(account: ServiceAccount, nowMs: number): Promise<string> {
	// jose loads on the first Vertex call (src/auth/session.ts says why).
	const { SignJWT } = await import('jose')
	const issuedAt = Math.floor(nowMs / MILLISECONDS_PER_SECOND)
	return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
		.setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
		.setIssuer(account.clientEmail)
		.setAudience(account.tokenUri)
		.setIssuedAt(issuedAt)
		.setExpirationTime(issuedAt + ASSERTION_LIFETIME_SECONDS)
		.sign(createPrivateKey(account.privateKey))
}

const cache = new TokenCache()

class TokenExchangeError extends Error {}

async function exchange(account: ServiceAccount, context: AdaptorContext): Promise<IssuedToken> {
	const answer = await context.fetchJson(account.tokenUri, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await signedAssertion(account, context.now()) }).toString(),
	}) as { access_token?: unknown; expires_in?: unknown }
	if (typeof answer.access_token !== 'string' || !answer.access_token) throw new TokenExchangeError('the token endpoint answered no access_token')
	const lifetimeSeconds = typeof answer.expires_in === 'number' ? answer.expires_in : ASSERTION_LIFETIME_SECONDS
	return { token: answer.access_token, renewAt: context.now() + lifetimeSeconds * MILLISECONDS_PER_SECOND - REFRESH_MARGIN_MS }
}

/** One exchange at a time per account: concurrent calls share the pending token. */
export function accessToken(account: ServiceAccount, context: AdaptorContext): Promise<string> {
	return cache.get(`${account.tokenUri}\n${account.clientEmail}\n${account.privateKeyId}`, context.now(), () => exchange(account, context))
}

/** For tests: forget every cached token. */
export function clearAccessTokens() {
	cache.clear()
}
