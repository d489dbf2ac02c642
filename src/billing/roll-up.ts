/**
 * Rolls closed holds up (issue 17): without it `quota_holds` grows by a row per billed call for
 * ever. A batch of holds closed (settled or voided) before a cutoff is deleted and what the settled
 * ones charged is added to `quota_hold_totals`, one row per user and token (and what subscriptions
 * paid to their `rolled_up`), in one transaction, so the ledger audit (audit.ts), which sums both,
 * reads the same figures before and after.
 *
 * A closed hold never changes again (settle and void touch pending holds only), so moving it is
 * safe while calls run. Two nodes rolling up at once cannot count a hold twice: each total comes
 * from the rows its own DELETE removed, and a row is deleted once.
 */
import { execute, query, type Store } from '@/db'
import { HOLD_STATE } from './holds'

/** Closed holds stay this long for inspection (a request id in a log can still be looked up). */
export const HOLD_ROLL_UP_AGE_SECONDS = 24 * 60 * 60
/** Holds moved per transaction: short enough that the relay's writes never wait long behind it. */
export const HOLD_ROLL_UP_BATCH = 1000

const TAKE_CLOSED = `DELETE FROM quota_holds WHERE id IN (
	SELECT id FROM quota_holds WHERE state <> '${HOLD_STATE.pending}' AND closed_at < $1 ORDER BY id LIMIT $2
) RETURNING user_id, token_id, state, charged, subscription_id`
const ADD_TOTAL = `INSERT INTO quota_hold_totals (user_id, token_id, charged, holds) VALUES ($1, $2, $3, $4)
	ON CONFLICT (user_id, token_id) DO UPDATE SET charged = quota_hold_totals.charged + excluded.charged, holds = quota_hold_totals.holds + excluded.holds`

/** What a subscription paid, as its rolled-up holds charged it (the audit adds it to its settled holds). */
const ADD_SUBSCRIPTION_TOTAL = 'UPDATE subscriptions SET rolled_up = rolled_up + $1 WHERE id = $2'

type ClosedHold = { user_id: number | string; token_id: number | string; state: string; charged: number | string; subscription_id: number | string }

/** Moves one batch of holds closed before `closedBefore` (unix seconds); answers how many it moved. */
export async function rollUpClosedHolds(store: Store, closedBefore: number, batch = HOLD_ROLL_UP_BATCH): Promise<number> {
	return store.transaction(function* () {
		const closed = yield* query<ClosedHold>(TAKE_CLOSED, [closedBefore, batch])
		const totals = new Map<string, { userId: number; tokenId: number; charged: number; holds: number }>()
		const paidBySubscriptions = new Map<number, number>()
		for (const hold of closed) {
			if (hold.state !== HOLD_STATE.settled) continue
			const subscriptionId = Number(hold.subscription_id ?? 0)
			if (subscriptionId > 0) paidBySubscriptions.set(subscriptionId, (paidBySubscriptions.get(subscriptionId) ?? 0) + Number(hold.charged))
			const userId = Number(hold.user_id)
			const tokenId = Number(hold.token_id)
			const key = `${userId}/${tokenId}`
			const total = totals.get(key) ?? { userId, tokenId, charged: 0, holds: 0 }
			total.charged += Number(hold.charged)
			total.holds += 1
			totals.set(key, total)
		}
		for (const { userId, tokenId, charged, holds } of totals.values()) yield* execute(ADD_TOTAL, [userId, tokenId, charged, holds])
		for (const [subscriptionId, charged] of paidBySubscriptions) yield* execute(ADD_SUBSCRIPTION_TOTAL, [charged, subscriptionId])
		return closed.length
	})
}
