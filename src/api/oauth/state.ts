/**
 * The OAuth `state` (docs/operations/security.md#sign-in-protection): random, bound to the browser by a signed httpOnly cookie, and
 * good once. The cookie remembers the invitation code for a new account and, when the browser
 * was signed in at the start, the user the provider account is to be bound to; the provider's
 * callback then binds instead of signing in, and only for that same signed-in user.
 */
import { and, eq, gt, lt } from 'drizzle-orm'
import { createHash, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { refused } from '../errors'
import { readCookie } from '@/auth/session'
import { OAUTH_MESSAGES } from './messages'

const STATE_COOKIE = 'ferry_oauth_state'
const STATE_LIFETIME_SECONDS = 10 * 60
const STATE_PURPOSE = 'oauth_state'
const COOKIE_PATH = '/api/oauth'
/** RFC 7636 allows 43 to 128 characters of [A-Za-z0-9-._~]. */
const PKCE_VERIFIER_LENGTH = 43

/** The S256 code_challenge of a verifier: base64url of its SHA-256, unpadded. */
export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

/** `verifier`: the PKCE code_verifier (RFC 7636) the token exchange sends; only its S256 challenge leaves the server before. */
const claimsSchema = z.object({ state: z.string(), aff: z.string(), userId: z.number().int(), expiresAt: z.number().int(), verifier: z.string() })
type StateClaims = z.infer<typeof claimsSchema>

function stateCookie(value: string, maxAge: number, secure: boolean) {
	return `${STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`
}

export const clearedStateCookie = () => stateCookie('', 0, false)

/** A new state for this browser; the answer's cookie must reach the browser with it. */
export async function issueState(dependencies: Dependencies, aff: string, userId: number, secure: boolean) {
	const { store, secrets } = dependencies
	const { verifications } = store.tables
	const state = randomString(32)
	const claims: StateClaims = { state, aff, userId, expiresAt: nowSeconds() + STATE_LIFETIME_SECONDS, verifier: randomString(PKCE_VERIFIER_LENGTH) }
	const digest = secrets.digest(`${STATE_PURPOSE}:${state}`)
	await store.db.delete(verifications).where(and(eq(verifications.purpose, STATE_PURPOSE), lt(verifications.expiresAt, nowSeconds())))
	await store.db.insert(verifications).values({ purpose: STATE_PURPOSE, target: digest, codeHash: digest, expiresAt: claims.expiresAt })
	const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
	return { state, codeChallenge: pkceChallenge(claims.verifier), cookie: stateCookie(`${payload}.${secrets.sign(`${STATE_PURPOSE}.${payload}`)}`, STATE_LIFETIME_SECONDS, secure) }
}

function readClaims(dependencies: Dependencies, headers: Headers): StateClaims | undefined {
	const [payload, signature] = (readCookie(headers.get('cookie'), STATE_COOKIE) ?? '').split('.')
	if (!payload || !signature || !dependencies.secrets.verify(`${STATE_PURPOSE}.${payload}`, signature)) return undefined
	try {
		const claims = claimsSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
		return claims.success && claims.data.expiresAt > nowSeconds() ? claims.data : undefined
	} catch {
		return undefined
	}
}

function sameText(left: string, right: string) {
	const a = Buffer.from(left)
	const b = Buffer.from(right)
	return a.length === b.length && timingSafeEqual(a, b)
}

/** The claims of the presented state if this browser was given it and it is unused; it is used up now. */
export async function consumeState(dependencies: Dependencies, headers: Headers, presented: string): Promise<StateClaims> {
	const claims = readClaims(dependencies, headers)
	if (!claims || !sameText(claims.state, presented)) throw refused(OAUTH_MESSAGES.stateInvalid)
	const { verifications } = dependencies.store.tables
	const digest = dependencies.secrets.digest(`${STATE_PURPOSE}:${claims.state}`)
	const used = await dependencies.store.db.delete(verifications)
		.where(and(eq(verifications.purpose, STATE_PURPOSE), eq(verifications.target, digest), gt(verifications.expiresAt, nowSeconds())))
		.returning({ id: verifications.id })
	if (used.length === 0) throw refused(OAUTH_MESSAGES.stateInvalid)
	return claims
}
