/**
 * Console sessions: a signed JWT (HS256, `@elysiajs/jwt`) in an httpOnly, SameSite=Lax cookie
 * carrying the user id (`sub`) and the user's session version (`ver`). Bumping
 * `users.session_version` (logout, password, role or status change) ends every session of that
 * user at once, on every node. Sessions signed before Ferry used the plugin verify too: same key,
 * same algorithm, same claims.
 *
 * The plugin and jose under it (about 50 modules) load on the first session signed or read, not at
 * start: a gateway that only relays never pays their memory. (The relay's providers that sign JWTs,
 * Vertex and Zhipu, load jose on their first call likewise.)
 */
import { sessionSigningKey } from '@/lib/crypto'

const SESSION_COOKIE = 'ferry_session'
const SESSION_LIFETIME_SECONDS = 30 * 24 * 3600

interface SessionClaims {
	sub: number
	ver: number
}

export interface Sessions {
	sign(userId: number, sessionVersion: number): Promise<string>
	/** The claims of a valid, unexpired session token, or undefined. */
	verify(token: string | undefined): Promise<SessionClaims | undefined>
	/** The claims of the session cookie among a request's headers, or undefined. */
	fromHeaders(headers: Headers): Promise<SessionClaims | undefined>
}

async function sessionSigner(sessionSecret: string) {
	const { jwt } = await import('@elysiajs/jwt')
	return jwt({
		name: 'session', secret: new Uint8Array(sessionSigningKey(sessionSecret)), alg: 'HS256', exp: `${SESSION_LIFETIME_SECONDS}s`,
	}).decorator.session
}

export function createSessions(sessionSecret: string): Sessions {
	let signer: ReturnType<typeof sessionSigner> | undefined
	const session = () => (signer ??= sessionSigner(sessionSecret))
	async function verify(token: string | undefined): Promise<SessionClaims | undefined> {
		if (!token) return undefined
		const claims = await (await session()).verify(token, { algorithms: ['HS256'] })
		if (!claims || !Number.isInteger(claims.sub) || !Number.isInteger(claims.ver) || typeof claims.exp !== 'number') return undefined
		return { sub: claims.sub as unknown as number, ver: claims.ver as number }
	}
	return {
		// `sub` stays a number, as every session ever issued carries it.
		sign: async (userId, sessionVersion) => (await session()).sign({ sub: userId as unknown as string, ver: sessionVersion }),
		verify,
		fromHeaders: (headers) => verify(readCookie(headers.get('cookie'), SESSION_COOKIE)),
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

/** Whether the request carries a session cookie at all, valid or not (an expired login, say). */
export const hasSessionCookie = (headers: Headers) => readCookie(headers.get('cookie'), SESSION_COOKIE) !== undefined

export function sessionCookie(token: string, secure: boolean): string {
	return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_LIFETIME_SECONDS}${secure ? '; Secure' : ''}`
}

export function clearedSessionCookie(): string {
	return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`
}
