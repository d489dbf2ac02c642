/**
 * Zhipu's auth token: a JWT (HS256, signed by jose) made from the key `id.secret`, with the header
 * field `sign_type: SIGN` and, unlike standard JWTs, `exp` and `timestamp` in milliseconds (so they
 * are set as plain payload fields, not with jose's claim setters, which take seconds).
 */

/** How long a token is valid; each request signs a fresh one. */
const TOKEN_LIFETIME_MS = 30 * 60 * 1000

class ZhipuKeyError extends Error {}

export async function zhipuToken(key: string, now: number): Promise<string> {
	const separator = key.indexOf('.')
	if (separator <= 0 || separator === key.length - 1) return Promise.reject(new ZhipuKeyError('a Zhipu key is id.secret'))
	const id = key.slice(0, separator)
	const secret = key.slice(separator + 1)
	// jose loads on the first Zhipu call (src/auth/session.ts says why).
	const { SignJWT } = await import('jose')
	return new SignJWT({ api_key: id, exp: now + TOKEN_LIFETIME_MS, timestamp: now })
		.setProtectedHeader({ alg: 'HS256', sign_type: 'SIGN' })
		.sign(new TextEncoder().encode(secret))
}
