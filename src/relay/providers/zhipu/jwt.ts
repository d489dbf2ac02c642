/**
 * Zhipu's auth token: a JWT (HS256) made from the key `id.secret`, with the header field
 * `sign_type: SIGN` and, unlike standard JWTs, `exp` and `timestamp` in milliseconds.
 */
import { createHmac } from 'node:crypto'

/** How long a token is valid; each request signs a fresh one. */
export const TOKEN_LIFETIME_MS = 30 * 60 * 1000

export class ZhipuKeyError extends Error {}

const base64Url = (text: string | Buffer) => Buffer.from(text).toString('base64url')

export function zhipuToken(key: string, now: number): string {
	const separator = key.indexOf('.')
	if (separator <= 0 || separator === key.length - 1) throw new ZhipuKeyError('a Zhipu key is id.secret')
	const id = key.slice(0, separator)
	const secret = key.slice(separator + 1)
	const header = base64Url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }))
	const payload = base64Url(JSON.stringify({ api_key: id, exp: now + TOKEN_LIFETIME_MS, timestamp: now }))
	const signature = base64Url(createHmac('sha256', secret).update(`${header}.${payload}`).digest())
	return `${header}.${payload}.${signature}`
}
