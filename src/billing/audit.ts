/**
 * The ledger invariant, checked by `ferry audit` and the tests. For every user:
 *   quota + Σ pending wallet holds + Σ settled wallet charges − Σ credits = 0
 *   used_quota = Σ settled charges (whatever paid them)
 * where credits are the logged money events (top-ups, codes, admin changes, system grants, plan
 * purchases as negative ones). For every token: used_quota = Σ settled charges made with it.
 * For every period of a subscription's window: quota = used + held + remain, none below zero, and
 * held = Σ pending holds taken from it; for every window of a subscription, the used of its periods
 * adds up to Σ settled charges the subscription paid (each call charges every window alike). For
 * every period of a token's spend window: quota = used + held + remain, none below zero, and
 * held = Σ pending holds taken from it.
 *
 * Settled charges are the settled holds still in `quota_holds` plus the totals of those rolled up
 * into `quota_hold_totals` (roll-up.ts). Every figure is read in one transaction, one snapshot of
 * the database (repeatable read on Postgres), so a roll-up, a settle or a credit committing while
 * the audit reads can never be counted half.
 */
import { and, eq, gt, inArray, ne, sql, sum } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { execute, rows, type Store } from '@/db'
import { HOLD_STATE } from './holds'
import { periodIds } from './plan-holds'

export const CREDIT_LOG_TYPES = [LOG_TYPE.topUp, LOG_TYPE.manage, LOG_TYPE.system] as const

type LedgerDifference =
	| { kind: 'user_balance'; userId: number; quota: number; pending: number; settled: number; credits: number; difference: number }
	| { kind: 'user_used_quota'; userId: number; usedQuota: number; settled: number }
	| { kind: 'token_used_quota'; tokenId: number; usedQuota: number; settled: number }
	| { kind: 'period_balance'; periodId: number; subscriptionId: number; quota: number; used: number; held: number; remain: number }
	| { kind: 'period_held'; periodId: number; subscriptionId: number; held: number; pending: number }
	| { kind: 'window_used'; subscriptionId: number; windowIndex: number; used: number; settled: number }
	| { kind: 'token_period_balance'; periodId: number; tokenId: number; quota: number; used: number; held: number; remain: number }
	| { kind: 'token_period_held'; periodId: number; tokenId: number; held: number; pending: number }

const asNumber = (value: unknown) => Number(value ?? 0)

const SNAPSHOT = 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'

export async function auditLedger(store: Store): Promise<LedgerDifference[]> {
	const read = await store.transaction(function* (tx, tables) {
		const { users, tokens, quotaHolds, quotaHoldTotals, logs, subscriptions, subscriptionPeriods, tokenPeriods } = tables
		// The first statement of the transaction: every read below sees one snapshot.
		if (store.dialect === 'pg') yield* execute(SNAPSHOT)
		const planHold = sql<number>`case when ${quotaHolds.subscriptionId} > 0 then 1 else 0 end`
		return {
			userRows: yield* rows(tx.select({ id: users.id, quota: users.quota, usedQuota: users.usedQuota }).from(users)),
			holdSums: yield* rows(tx.select({ userId: quotaHolds.userId, state: quotaHolds.state, plan: planHold, amount: sum(quotaHolds.amount), charged: sum(quotaHolds.charged) })
				.from(quotaHolds).where(ne(quotaHolds.state, HOLD_STATE.voided)).groupBy(quotaHolds.userId, quotaHolds.state, planHold)),
			rolledUp: yield* rows(tx.select({ userId: quotaHoldTotals.userId, charged: sum(quotaHoldTotals.charged) }).from(quotaHoldTotals).groupBy(quotaHoldTotals.userId)),
			creditSums: yield* rows(tx.select({ userId: logs.userId, credits: sum(logs.quota) }).from(logs)
				.where(inArray(logs.type, [...CREDIT_LOG_TYPES])).groupBy(logs.userId)),
			tokenRows: yield* rows(tx.select({ id: tokens.id, usedQuota: tokens.usedQuota }).from(tokens)),
			tokenSettled: yield* rows(tx.select({ tokenId: quotaHolds.tokenId, charged: sum(quotaHolds.charged) }).from(quotaHolds)
				.where(and(eq(quotaHolds.state, HOLD_STATE.settled), sql`${quotaHolds.tokenId} > 0`)).groupBy(quotaHolds.tokenId)),
			tokenRolledUp: yield* rows(tx.select({ tokenId: quotaHoldTotals.tokenId, charged: sum(quotaHoldTotals.charged) }).from(quotaHoldTotals)
				.where(sql`${quotaHoldTotals.tokenId} > 0`).groupBy(quotaHoldTotals.tokenId)),
			subscriptionRows: yield* rows(tx.select({ id: subscriptions.id, userId: subscriptions.userId, windows: subscriptions.windows, rolledUp: subscriptions.rolledUp }).from(subscriptions)),
			subscriptionSettled: yield* rows(tx.select({ subscriptionId: quotaHolds.subscriptionId, charged: sum(quotaHolds.charged) }).from(quotaHolds)
				.where(and(eq(quotaHolds.state, HOLD_STATE.settled), gt(quotaHolds.subscriptionId, 0))).groupBy(quotaHolds.subscriptionId)),
			// Pending holds are the calls in flight: few.
			pendingPlanHolds: yield* rows(tx.select({ amount: quotaHolds.amount, periods: quotaHolds.periods }).from(quotaHolds)
				.where(and(eq(quotaHolds.state, HOLD_STATE.pending), gt(quotaHolds.subscriptionId, 0)))),
			periodRows: yield* rows(tx.select().from(subscriptionPeriods)),
			pendingWindowHolds: yield* rows(tx.select({ amount: quotaHolds.amount, periods: quotaHolds.tokenPeriods }).from(quotaHolds)
				.where(and(eq(quotaHolds.state, HOLD_STATE.pending), ne(quotaHolds.tokenPeriods, '')))),
			tokenPeriodRows: yield* rows(tx.select().from(tokenPeriods)),
		}
	})
	const { userRows, holdSums, rolledUp, creditSums, tokenRows, tokenSettled, tokenRolledUp } = read
	const pending = new Map<number, number>()
	const settled = new Map<number, number>()
	/** What subscriptions paid, per user: settled charges that are not the wallet's. */
	const planSettled = new Map<number, number>()
	const addTo = (map: Map<number, number>, key: number, value: unknown) => map.set(key, (map.get(key) ?? 0) + asNumber(value))
	for (const row of holdSums) {
		const plan = Number(row.plan) === 1
		if (row.state === HOLD_STATE.pending) {
			if (!plan) addTo(pending, Number(row.userId), row.amount)
		} else {
			addTo(settled, Number(row.userId), row.charged)
			if (plan) addTo(planSettled, Number(row.userId), row.charged)
		}
	}
	for (const row of rolledUp) addTo(settled, Number(row.userId), row.charged)
	for (const subscription of read.subscriptionRows) addTo(planSettled, Number(subscription.userId), subscription.rolledUp)
	const credits = new Map(creditSums.map((row) => [Number(row.userId), asNumber(row.credits)]))
	const differences: LedgerDifference[] = []
	for (const user of userRows) {
		const userPending = pending.get(user.id) ?? 0
		const userSettled = settled.get(user.id) ?? 0
		const walletSettled = userSettled - (planSettled.get(user.id) ?? 0)
		const userCredits = credits.get(user.id) ?? 0
		const difference = user.quota + userPending + walletSettled - userCredits
		if (difference !== 0) differences.push({ kind: 'user_balance', userId: user.id, quota: user.quota, pending: userPending, settled: walletSettled, credits: userCredits, difference })
		if (user.usedQuota !== userSettled) differences.push({ kind: 'user_used_quota', userId: user.id, usedQuota: user.usedQuota, settled: userSettled })
	}
	const tokenCharges = new Map<number, number>()
	for (const row of [...tokenSettled, ...tokenRolledUp]) addTo(tokenCharges, Number(row.tokenId), row.charged)
	for (const token of tokenRows) {
		const charged = tokenCharges.get(token.id) ?? 0
		if (token.usedQuota !== charged) differences.push({ kind: 'token_used_quota', tokenId: token.id, usedQuota: token.usedQuota, settled: charged })
	}
	differences.push(...auditWindows(read), ...auditTokenWindows(read))
	return differences
}

/** Every period of a token's spend window balances and holds what its pending holds took. */
function auditTokenWindows({ pendingWindowHolds, tokenPeriodRows }: {
	pendingWindowHolds: { amount: number; periods: string }[]
	tokenPeriodRows: { id: number; tokenId: number; quota: number; used: number; held: number; remain: number }[]
}): LedgerDifference[] {
	const differences: LedgerDifference[] = []
	const heldByPeriod = new Map<number, number>()
	for (const hold of pendingWindowHolds) {
		for (const id of periodIds(hold.periods)) heldByPeriod.set(id, (heldByPeriod.get(id) ?? 0) + Number(hold.amount))
	}
	for (const { id, tokenId, quota, used, held, remain } of tokenPeriodRows) {
		if (quota !== used + held + remain || used < 0 || held < 0 || remain < 0) differences.push({ kind: 'token_period_balance', periodId: id, tokenId, quota, used, held, remain })
		const pendingHere = heldByPeriod.get(id) ?? 0
		if (held !== pendingHere) differences.push({ kind: 'token_period_held', periodId: id, tokenId, held, pending: pendingHere })
	}
	return differences
}

type WindowFigures = {
	subscriptionRows: { id: number; windows: string; rolledUp: number }[]
	subscriptionSettled: { subscriptionId: number; charged: unknown }[]
	pendingPlanHolds: { amount: number; periods: string }[]
	periodRows: { id: number; subscriptionId: number; windowIndex: number; quota: number; used: number; held: number; remain: number }[]
}

/** Every period balances, holds what its pending holds took, and each window's periods used what its subscription paid. */
function auditWindows({ subscriptionRows, subscriptionSettled, pendingPlanHolds, periodRows }: WindowFigures): LedgerDifference[] {
	const differences: LedgerDifference[] = []
	const heldByPeriod = new Map<number, number>()
	for (const hold of pendingPlanHolds) {
		for (const id of periodIds(hold.periods)) heldByPeriod.set(id, (heldByPeriod.get(id) ?? 0) + Number(hold.amount))
	}
	const usedByWindow = new Map<string, number>()
	for (const period of periodRows) {
		const { id, subscriptionId, quota, used, held, remain } = period
		if (quota !== used + held + remain || used < 0 || held < 0 || remain < 0) differences.push({ kind: 'period_balance', periodId: id, subscriptionId, quota, used, held, remain })
		const pendingHere = heldByPeriod.get(id) ?? 0
		if (held !== pendingHere) differences.push({ kind: 'period_held', periodId: id, subscriptionId, held, pending: pendingHere })
		const key = `${subscriptionId}/${period.windowIndex}`
		usedByWindow.set(key, (usedByWindow.get(key) ?? 0) + used)
	}
	const paid = new Map(subscriptionSettled.map((row) => [Number(row.subscriptionId), asNumber(row.charged)]))
	for (const subscription of subscriptionRows) {
		const settledHere = (paid.get(subscription.id) ?? 0) + Number(subscription.rolledUp)
		const windows = windowCount(subscription.windows)
		for (let windowIndex = 0; windowIndex < windows; windowIndex++) {
			const used = usedByWindow.get(`${subscription.id}/${windowIndex}`) ?? 0
			if (used !== settledHere) differences.push({ kind: 'window_used', subscriptionId: subscription.id, windowIndex, used, settled: settledHere })
		}
	}
	return differences
}

function windowCount(windows: string): number {
	try {
		const parsed: unknown = JSON.parse(windows)
		return Array.isArray(parsed) ? parsed.length : 0
	} catch {
		return 0
	}
}
