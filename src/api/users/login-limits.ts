/**
 * How fast passwords may be guessed (docs/operations/security.md#sign-in-protection), checked before any password is hashed.
 *
 * A limit on an account alone lets anyone lock its owner out: ten wrong guesses from anywhere and
 * the right password fails everywhere. So the hard limits count per address and per (account,
 * address) pair, and the account-wide count never refuses on its own: once an account draws many
 * attempts it only tightens what each address may still try on it. An attacker without the
 * password then gets a few guesses per address and window, and the owner, from any address that
 * has not been guessing, still gets in. (With Turnstile on, every attempt also needs a token.)
 *
 * Addresses are counted by `addressGroup` (an IPv6 /64 counts as one). Every counter is a plain
 * `hit`, so a limiter shared through Redis needs nothing more.
 */
import { API_MESSAGES } from '@shared/api'
import type { RateLimiter } from '@/lib/rate-limiter'
import { addressGroup } from '@/lib/client-address'
import { ApiError } from '../errors'

export const LOGIN_LIMITS = {
	/** Every attempt from one address, whatever the account. */
	perAddress: { limit: 50, windowSeconds: 600 },
	/** Attempts on one account from one address. */
	perAccountAddress: { limit: 10, windowSeconds: 600 },
	/** Attempts on one account from everywhere; past it the account is "under pressure". It never refuses by itself. */
	perAccount: { limit: 5, windowSeconds: 900 },
	/** While the account is under pressure: the attempts one address may still make on it. */
	perAccountAddressUnderPressure: { limit: 3, windowSeconds: 900 },
} as const

const tooMany = () => new ApiError(API_MESSAGES.tooManyRequests, 429)

/** The address counter: checked first, before the account is even looked up. */
export async function enforceAddressLimit(rateLimiter: RateLimiter, clientAddress: string) {
	const { limit, windowSeconds } = LOGIN_LIMITS.perAddress
	if (!await rateLimiter.hit(`login:address:${addressGroup(clientAddress)}`, limit, windowSeconds)) throw tooMany()
}

/**
 * The account counters. `account` names the account the same way however it was typed (the user
 * id when it exists, the lower-cased name otherwise), so switching between username and email
 * buys no extra guesses.
 */
export async function enforceAccountLimits(rateLimiter: RateLimiter, account: string, clientAddress: string) {
	const address = addressGroup(clientAddress)
	const pair = LOGIN_LIMITS.perAccountAddress
	if (!await rateLimiter.hit(`login:account-address:${account}:${address}`, pair.limit, pair.windowSeconds)) throw tooMany()
	const whole = LOGIN_LIMITS.perAccount
	if (await rateLimiter.hit(`login:account:${account}`, whole.limit, whole.windowSeconds)) return
	const strict = LOGIN_LIMITS.perAccountAddressUnderPressure
	if (!await rateLimiter.hit(`login:pressured-account-address:${account}:${address}`, strict.limit, strict.windowSeconds)) throw tooMany()
}
