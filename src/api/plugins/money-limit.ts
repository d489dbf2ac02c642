/**
 * How often one signed-in user may call the calls that open a payment or move money into or out of
 * the wallet: opening an online top-up or plan payment, redeeming a code, buying a plan from the
 * wallet, transferring invitation income. Each is cheap to call and each writes (an order row, a
 * guarded ledger transaction, a code lookup to guess against), so a user hammering them is refused
 * with a 429 long before that costs anything, as the peers' "critical" limit does. One window
 * counts all of them together, per user (not per address: the caller is signed in, and a user
 * behind many addresses is still one user). The payment service's notify is not limited: it has no
 * user, its signature is its authentication, and refusing it would only delay a credit.
 */
import { API_MESSAGES } from '@shared/api'
import { withValues } from '@shared/messages'
import type { RateLimiter } from '@/lib/rate-limiter'
import { ApiError } from '../errors'

/** `METHOD /api/route` of the money calls, as the route policy names them. */
export const MONEY_ROUTES: ReadonlySet<string> = new Set([
	'POST /api/user/pay',
	'POST /api/user/topup',
	'POST /api/plan/:id/pay',
	'POST /api/plan/:id/purchase',
	'POST /api/user/aff_transfer',
])

/** Every money call of one user, together, in a fixed window: 20 every 20 minutes. */
export const MONEY_LIMIT = { limit: 20, windowSeconds: 1200 } as const

export const isMoneyRoute = (method: string, route: string) => MONEY_ROUTES.has(`${method} ${route}`)

/** Counts one money call of the user; throws the 429 once the window's calls are spent. */
export async function enforceMoneyLimit(rateLimiter: RateLimiter, userId: number) {
	const { limit, windowSeconds } = MONEY_LIMIT
	if (await rateLimiter.hit(`money:user:${userId}`, limit, windowSeconds)) return
	throw new ApiError(withValues(API_MESSAGES.tooManyMoneyRequests, { limit, minutes: windowSeconds / 60 }), 429)
}
