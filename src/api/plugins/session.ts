/**
 * Console sessions: a signed JWT (HS256) in an httpOnly, SameSite=Lax cookie carrying the user id
 * and the user's session version. Bumping `users.session_version` (logout, password, role or
 * status change) ends every session of that user at once, on every node.
 */
import type { SecretBox } from '@/lib/crypto'
import { nowSeconds } from '@/lib/clock'

export const SESSION_COOKIE = 'ferry_session'
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 3600

type SessionClaims = { sub: number; ver: number; iat: number; exp: number }

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const HEADER = encode({ alg: 'HS256', typ: 'JWT' })

export function signSession(secrets: SecretBox, userId: number, sessionVersion: number): string {
	const issuedAt = nowSeconds()
	const payload = encode({ sub: userId, ver: sessionVersion, iat: issuedAt, exp: issuedAt + SESSION_LIFETIME_SECONDS })
	return `${HEADER}.${payload}.${secrets.sign(`${HEADER}.${payload}`)}`
}

export function verifySession(secrets: SecretBox, token: string): SessionClaims | undefined {
	const [header, payload, signature] = token.split('.')
	if (header !== HEADER || !payload || !signature || !secrets.verify(`${header}.${payload}`, signature)) return undefined
	try {
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SessionClaims
		if (!Number.isInteger(claims.sub) || !Number.isInteger(claims.ver) || !(claims.exp > nowSeconds())) return undefined
		return claims
	} catch {
		return undefined
	}
}

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
	if (!cookieHeader) return undefined
	for (const part of cookieHeader.split(';')) {
		const separator = part.indexOf('=')
		if (separator > 0 && part.slice(0, separator).trim() === name) return decodeURIComponent(part.slice(separator + 1).trim())
	}
	return undefined
}

export function sessionCookie(token: string, secure: boolean): string {
	return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_LIFETIME_SECONDS}${secure ? '; Secure' : ''}`
}

export function clearedSessionCookie(): string {
	return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`
}
