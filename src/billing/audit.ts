/**
 * The ledger invariant (design §4), checked by `ferry audit` and the tests. For every user:
 *   quota + Σ pending holds + Σ settled charges − Σ credits = 0   and   used_quota = Σ settled charges
 * where credits are the logged money events (top-ups, codes, admin changes, system grants).
 * For every token: used_quota = Σ settled charges made with it.
 */
import { and, eq, inArray, ne, sql, sum } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { Store } from '@/db'
import { HOLD_STATE } from './holds'

export const CREDIT_LOG_TYPES = [LOG_TYPE.topUp, LOG_TYPE.manage, LOG_TYPE.system] as const

type LedgerDifference =
	| { kind: 'user_balance'; userId: number; quota: number; pending: number; settled: number; credits: number; difference: number }
	| { kind: 'user_used_quota'; userId: number; usedQuota: number; settled: number }
	| { kind: 'token_used_quota'; tokenId: number; usedQuota: number; settled: number }

const asNumber = (value: unknown) => Number(value ?? 0)

export async function auditLedger(store: Store): Promise<LedgerDifference[]> {
	const { users, tokens, quotaHolds, logs } = store.tables
	const [userRows, holdSums, creditSums, tokenRows, tokenSettled] = await Promise.all([
		store.db.select({ id: users.id, quota: users.quota, usedQuota: users.usedQuota }).from(users),
		store.db.select({ userId: quotaHolds.userId, state: quotaHolds.state, amount: sum(quotaHolds.amount), charged: sum(quotaHolds.charged) })
			.from(quotaHolds).where(ne(quotaHolds.state, HOLD_STATE.voided)).groupBy(quotaHolds.userId, quotaHolds.state),
		store.db.select({ userId: logs.userId, credits: sum(logs.quota) }).from(logs)
			.where(inArray(logs.type, [...CREDIT_LOG_TYPES])).groupBy(logs.userId),
		store.db.select({ id: tokens.id, usedQuota: tokens.usedQuota }).from(tokens),
		store.db.select({ tokenId: quotaHolds.tokenId, charged: sum(quotaHolds.charged) }).from(quotaHolds)
			.where(and(eq(quotaHolds.state, HOLD_STATE.settled), sql`${quotaHolds.tokenId} > 0`)).groupBy(quotaHolds.tokenId),
	])
	const pending = new Map<number, number>()
	const settled = new Map<number, number>()
	for (const row of holdSums) {
		if (row.state === HOLD_STATE.pending) pending.set(row.userId, asNumber(row.amount))
		else settled.set(row.userId, asNumber(row.charged))
	}
	const credits = new Map(creditSums.map((row) => [row.userId, asNumber(row.credits)]))
	const differences: LedgerDifference[] = []
	for (const user of userRows) {
		const userPending = pending.get(user.id) ?? 0
		const userSettled = settled.get(user.id) ?? 0
		const userCredits = credits.get(user.id) ?? 0
		const difference = user.quota + userPending + userSettled - userCredits
		if (difference !== 0) differences.push({ kind: 'user_balance', userId: user.id, quota: user.quota, pending: userPending, settled: userSettled, credits: userCredits, difference })
		if (user.usedQuota !== userSettled) differences.push({ kind: 'user_used_quota', userId: user.id, usedQuota: user.usedQuota, settled: userSettled })
	}
	const tokenCharges = new Map(tokenSettled.map((row) => [row.tokenId, asNumber(row.charged)]))
	for (const token of tokenRows) {
		const charged = tokenCharges.get(token.id) ?? 0
		if (token.usedQuota !== charged) differences.push({ kind: 'token_used_quota', tokenId: token.id, usedQuota: token.usedQuota, settled: charged })
	}
	return differences
}
