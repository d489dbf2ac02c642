/**
 * The ledger invariant (design §4), checked by `ferry audit` and the tests. For every user:
 *   quota + Σ pending holds + Σ settled charges − Σ credits = 0   and   used_quota = Σ settled charges
 * where credits are the logged money events (top-ups, codes, admin changes, system grants).
 * For every token: used_quota = Σ settled charges made with it.
 *
 * Settled charges are the settled holds still in `quota_holds` plus the totals of those rolled up
 * into `quota_hold_totals` (roll-up.ts). Every figure is read in one transaction, one snapshot of
 * the database (repeatable read on Postgres), so a roll-up, a settle or a credit committing while
 * the audit reads can never be counted half.
 */
import { and, eq, inArray, ne, sql, sum } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { execute, rows, type Store } from '@/db'
import { HOLD_STATE } from './holds'

export const CREDIT_LOG_TYPES = [LOG_TYPE.topUp, LOG_TYPE.manage, LOG_TYPE.system] as const

type LedgerDifference =
	| { kind: 'user_balance'; userId: number; quota: number; pending: number; settled: number; credits: number; difference: number }
	| { kind: 'user_used_quota'; userId: number; usedQuota: number; settled: number }
	| { kind: 'token_used_quota'; tokenId: number; usedQuota: number; settled: number }

const asNumber = (value: unknown) => Number(value ?? 0)

const SNAPSHOT = 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'

export async function auditLedger(store: Store): Promise<LedgerDifference[]> {
	const { userRows, holdSums, rolledUp, creditSums, tokenRows, tokenSettled, tokenRolledUp } = await store.transaction(function* (tx, tables) {
		const { users, tokens, quotaHolds, quotaHoldTotals, logs } = tables
		// The first statement of the transaction: every read below sees one snapshot.
		if (store.dialect === 'pg') yield* execute(SNAPSHOT)
		return {
			userRows: yield* rows(tx.select({ id: users.id, quota: users.quota, usedQuota: users.usedQuota }).from(users)),
			holdSums: yield* rows(tx.select({ userId: quotaHolds.userId, state: quotaHolds.state, amount: sum(quotaHolds.amount), charged: sum(quotaHolds.charged) })
				.from(quotaHolds).where(ne(quotaHolds.state, HOLD_STATE.voided)).groupBy(quotaHolds.userId, quotaHolds.state)),
			rolledUp: yield* rows(tx.select({ userId: quotaHoldTotals.userId, charged: sum(quotaHoldTotals.charged) }).from(quotaHoldTotals).groupBy(quotaHoldTotals.userId)),
			creditSums: yield* rows(tx.select({ userId: logs.userId, credits: sum(logs.quota) }).from(logs)
				.where(inArray(logs.type, [...CREDIT_LOG_TYPES])).groupBy(logs.userId)),
			tokenRows: yield* rows(tx.select({ id: tokens.id, usedQuota: tokens.usedQuota }).from(tokens)),
			tokenSettled: yield* rows(tx.select({ tokenId: quotaHolds.tokenId, charged: sum(quotaHolds.charged) }).from(quotaHolds)
				.where(and(eq(quotaHolds.state, HOLD_STATE.settled), sql`${quotaHolds.tokenId} > 0`)).groupBy(quotaHolds.tokenId)),
			tokenRolledUp: yield* rows(tx.select({ tokenId: quotaHoldTotals.tokenId, charged: sum(quotaHoldTotals.charged) }).from(quotaHoldTotals)
				.where(sql`${quotaHoldTotals.tokenId} > 0`).groupBy(quotaHoldTotals.tokenId)),
		}
	})
	const pending = new Map<number, number>()
	const settled = new Map<number, number>()
	const addTo = (map: Map<number, number>, key: number, value: unknown) => map.set(key, (map.get(key) ?? 0) + asNumber(value))
	for (const row of holdSums) {
		if (row.state === HOLD_STATE.pending) addTo(pending, Number(row.userId), row.amount)
		else addTo(settled, Number(row.userId), row.charged)
	}
	for (const row of rolledUp) addTo(settled, Number(row.userId), row.charged)
	const credits = new Map(creditSums.map((row) => [Number(row.userId), asNumber(row.credits)]))
	const differences: LedgerDifference[] = []
	for (const user of userRows) {
		const userPending = pending.get(user.id) ?? 0
		const userSettled = settled.get(user.id) ?? 0
		const userCredits = credits.get(user.id) ?? 0
		const difference = user.quota + userPending + userSettled - userCredits
		if (difference !== 0) differences.push({ kind: 'user_balance', userId: user.id, quota: user.quota, pending: userPending, settled: userSettled, credits: userCredits, difference })
		if (user.usedQuota !== userSettled) differences.push({ kind: 'user_used_quota', userId: user.id, usedQuota: user.usedQuota, settled: userSettled })
	}
	const tokenCharges = new Map<number, number>()
	for (const row of [...tokenSettled, ...tokenRolledUp]) addTo(tokenCharges, Number(row.tokenId), row.charged)
	for (const token of tokenRows) {
		const charged = tokenCharges.get(token.id) ?? 0
		if (token.usedQuota !== charged) differences.push({ kind: 'token_used_quota', tokenId: token.id, usedQuota: token.usedQuota, settled: charged })
	}
	return differences
}
