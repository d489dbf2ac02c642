/**
 * The database side of allowances (allowances.ts; docs/architecture.md#allowances). An allowance is
 * a pending wallet hold of its own (`request_id` `allowance/<node>/<n>`, token 0): taking a slice
 * moves quota from `users.quota` into it, a call charged from it moves the charge from its amount
 * into a settled hold of the call, and giving it back voids it like any hold. So the ledger's
 * invariant and `ferry audit` include allowances without a rule of their own, and a crashed node's
 * allowance is returned by the reconciler exactly once (the void is a guarded state change), once
 * its deadline — the lease its node keeps renewing — has passed.
 */
import { execute, query, type Dialect, type Work } from '@/db'
import { nowSeconds } from '@/lib/clock'
import { HOLD_LIFETIME_SECONDS, INSERT_HOLD, type SettleOutcome, type Settlement, settleWork, TAKE_USER } from './holds'

const ALLOWANCE_PREFIX = 'allowance/'

/** Whether a hold's request id names an allowance rather than a call. */
export const isAllowance = (requestId: string) => requestId.startsWith(ALLOWANCE_PREFIX)
export const allowanceId = (node: string, serial: number) => `${ALLOWANCE_PREFIX}${node}/${serial}`

const READ_BALANCE = 'SELECT quota FROM users WHERE id = $1'
const INSERT_ALLOWANCE = 'INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, node, deadline) VALUES ($1, $2, 0, false, $3, $4, $5)'
/** Renews the lease; answers (by the changed count) whether the allowance is still this node's. */
const RENEW = 'UPDATE quota_holds SET deadline = $2 WHERE request_id = $1 AND state = \'pending\''
const ADD = 'UPDATE quota_holds SET amount = amount + $2, deadline = $3 WHERE request_id = $1 AND state = \'pending\''
/** Moves a call's hold out of the allowance: guarded, so a returned allowance gives nothing twice. */
const SPEND = 'UPDATE quota_holds SET amount = amount - $2 WHERE request_id = $1 AND state = \'pending\' AND amount >= $2'

export interface Slice {
	allowanceId: string
	userId: number
	/** What the node would like: about a second of the user's holds on it. */
	wanted: number
	/** Less than this is not worth an allowance: the calls go the guarded way. */
	least: number
	/** The slice takes at most this share of the balance (1/share). */
	share: number
	node: string
	deadline: number
	/** Whether the allowance exists (a top-up) or is to be created. */
	existing: boolean
}

/**
 * Moves a slice of the wallet into the allowance. Answers the quota moved (0: the balance is too
 * small to slice), or -1 when an existing allowance is no longer pending (returned by a reconciler
 * while its node thought it alive). The slice is sized from a read of the balance; the guard that
 * matters, `quota >= slice`, is in the update.
 */
export function takeSliceWork(slice: Slice): Work<number> {
	return function* () {
		if (slice.existing && (yield* execute(RENEW, [slice.allowanceId, slice.deadline])) === 0) return -1
		const [user] = yield* query<{ quota: number }>(READ_BALANCE, [slice.userId])
		const amount = Math.min(slice.wanted, Math.floor(Number(user?.quota ?? 0) / slice.share))
		if (amount < slice.least || (yield* execute(TAKE_USER, [amount, slice.userId])) === 0) return 0
		if (slice.existing) yield* execute(ADD, [slice.allowanceId, amount, slice.deadline])
		else yield* execute(INSERT_ALLOWANCE, [slice.allowanceId, slice.userId, amount, slice.node, slice.deadline])
		return amount
	}
}

export function renewWork(allowanceId: string, deadline: number): Work<boolean> {
	return function* () {
		return (yield* execute(RENEW, [allowanceId, deadline])) > 0
	}
}

/** A call's hold held in memory, made a hold row of its own (a task adopts it, or a settle of the caller's own needs it). */
export interface Materialised {
	allowanceId: string | undefined
	requestId: string
	userId: number
	tokenId: number
	amount: number
	node: string
}

/**
 * Moves the call's hold from the allowance into a pending hold row of the call. When the allowance
 * is gone (returned), the hold is taken from the wallet again, guarded; failing that the row holds
 * 0 and its settle takes what the wallet has. Answers whether the allowance paid.
 */
export function materialiseWork({ allowanceId: from, requestId, userId, tokenId, amount, node }: Materialised): Work<boolean> {
	return function* () {
		const spent = from !== undefined && (yield* execute(SPEND, [from, amount])) > 0
		const held = spent || (yield* execute(TAKE_USER, [amount, userId])) > 0 ? amount : 0
		yield* execute(INSERT_HOLD, [requestId, userId, tokenId, false, held, node, nowSeconds() + HOLD_LIFETIME_SECONDS])
		return spent
	}
}

/**
 * Settles a call whose hold was in an allowance that is gone: a hold row of 0 is recorded and
 * settled at once, so the charge is taken from the wallet, never below zero, like any charge above
 * its hold (holds.ts `settleWork`). The request id's unique index makes a second attempt fail.
 */
export function settleWithoutHoldWork(settlement: Settlement, { userId, tokenId, node }: { userId: number; tokenId: number; node: string }, dialect: Dialect): Work<SettleOutcome> {
	return function* () {
		yield* execute(INSERT_HOLD, [settlement.requestId, userId, tokenId, false, 0, node, nowSeconds() + HOLD_LIFETIME_SECONDS])
		return yield* settleWork(settlement, dialect)
	}
}
