/**
 * Funding sources in the ledger (issue 28 item 3): a hold is taken from the first subscription
 * that has room in every one of its windows, else from the wallet; settle and void give back to
 * where it came from; a window that resets while a call is in flight is charged where the call
 * began; the audit covers every window (granted = used + held + remain). On SQLite and Postgres,
 * with concurrent holds through the batching executor.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { Store } from '@/db'
import { auditLedger } from '@/billing/audit'
import { createBatchingExecutor } from '@/billing/batcher'
import { applyCredit } from '@/billing/ledger'
import { InsufficientQuotaError, reserve, settle, voidHold, type Settlement } from '@/billing/holds'
import type { PlanSource } from '@/billing/plan-holds'
import { rollUpClosedHolds } from '@/billing/roll-up'
import { grantWork, purchaseWork, resetWindowsWork, AlreadySubscribedError, type PlanRecord } from '@/billing/subscriptions'
import { nowSeconds } from '@/lib/clock'
import { databaseTargets } from '../helpers/database'
import { exemptFromLedgerAudit } from '../helpers/ledger-audit'

const WALLET = 10_000
const CALL = 100
/** A short window of 4 calls and a long one of 8. */
const WINDOWS = [{ seconds: 3600, quota: 4 * CALL }, { seconds: 7 * 24 * 3600, quota: 8 * CALL }]

for (const target of databaseTargets()) {
	describe(`funding sources in the ledger on ${target.dialect}`, () => {
		let store: Store
		let userId: number
		let plan: PlanRecord
		let source: PlanSource
		let requestNumber = 0

		beforeEach(async () => {
			store = await target.open()
			const { users, plans, channels } = store.tables
			const [user] = await store.db.insert(users).values({ username: 'subscriber', password: 'x', affCode: 'subscriber' }).returning()
			userId = user!.id
			await store.transaction(function* (tx, tables) {
				yield* applyCredit(tx, tables, { userId, amount: WALLET, type: LOG_TYPE.topUp, content: 'test credit' })
			})
			;[plan] = await store.db.insert(plans).values({ name: 'coding', price: 2_000, durationSeconds: 30 * 24 * 3600, windows: JSON.stringify(WINDOWS) }).returning() as [PlanRecord]
			const subscription = await store.transaction((tx, tables) => purchaseWork(tx, tables, userId, plan, nowSeconds()))
			source = { subscriptionId: subscription.id, windows: WINDOWS }
			await store.db.insert(channels).values({ id: 7, key: 'k', name: 'channel seven' })
		})
		afterEach(() => store.close())

		const hold = (amount = CALL, sources: readonly PlanSource[] = [source], ledger: Pick<Store, 'transaction' | 'dialect'> = store) => {
			const requestId = `request-${++requestNumber}`
			return reserve(ledger, { requestId, userId, tokenId: 0, tokenLimited: false, amount, node: 'n/1', sources }).then((paidBy) => ({ requestId, paidBy }))
		}
		const settlement = (requestId: string, actual: number): Settlement => ({
			requestId, actual, channelId: 7, cost: Math.round(actual / 2),
			log: { username: 'subscriber', tokenName: '', modelName: 'gpt-4o', group: 'default', promptTokens: 10, completionTokens: 5, useTime: 1, isStream: false, channelName: 'channel seven', ip: '', content: '', other: {} },
		})
		const wallet = async () => {
			const { users } = store.tables
			const [user] = await store.db.select().from(users).where(eq(users.id, userId))
			return { quota: user!.quota, used: user!.usedQuota, requests: user!.requestCount }
		}
		const periods = async () => {
			const { subscriptionPeriods } = store.tables
			const found = await store.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, source.subscriptionId)).orderBy(subscriptionPeriods.id)
			return found.map(({ windowIndex, sequence, quota, used, held, remain }) => ({ windowIndex, sequence, quota, used, held, remain }))
		}

		test('buying a plan takes its price from the wallet once, with a log line, and the audit holds', async () => {
			expect(await wallet()).toEqual({ quota: WALLET - 2_000, used: 0, requests: 0 })
			const { logs } = store.tables
			const lines = await store.db.select().from(logs).where(eq(logs.userId, userId))
			expect(lines.filter((line) => line.quota === -2_000 && line.type === LOG_TYPE.system)).toHaveLength(1)
			const again = await store.transaction((tx, tables) => purchaseWork(tx, tables, userId, plan, nowSeconds())).catch((error) => error)
			expect(again).toBeInstanceOf(AlreadySubscribedError)
			expect((await wallet()).quota).toBe(WALLET - 2_000)
			expect(await auditLedger(store)).toEqual([])
		})

		test('concurrent purchases of one plan charge once', async () => {
			const { plans } = store.tables
			const [other] = await store.db.insert(plans).values({ name: 'other', price: 500, durationSeconds: 3600, windows: JSON.stringify([{ seconds: 3600, quota: 10 }]) }).returning() as [PlanRecord]
			const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.transaction((tx, tables) => purchaseWork(tx, tables, userId, other, nowSeconds())).then(() => 'bought', (error) => error.constructor.name)))
			expect(outcomes.filter((outcome) => outcome === 'bought')).toHaveLength(1)
			expect(outcomes.filter((outcome) => outcome !== 'bought')).toEqual(Array(7).fill('AlreadySubscribedError'))
			expect((await wallet()).quota).toBe(WALLET - 2_000 - 500)
			expect(await auditLedger(store)).toEqual([])
		})

		test('a purchase the wallet cannot pay is refused with nothing charged', async () => {
			const { plans } = store.tables
			const [dear] = await store.db.insert(plans).values({ name: 'dear', price: WALLET, durationSeconds: 3600, windows: JSON.stringify([{ seconds: 3600, quota: 10 }]) }).returning() as [PlanRecord]
			const refused = await store.transaction((tx, tables) => purchaseWork(tx, tables, userId, dear, nowSeconds())).catch((error) => error)
			expect(refused).toBeInstanceOf(InsufficientQuotaError)
			expect((await wallet()).quota).toBe(WALLET - 2_000)
			const { subscriptions } = store.tables
			expect(await store.db.select().from(subscriptions).where(eq(subscriptions.planId, dear.id))).toEqual([])
		})

		test('six holds at once draw four from the plan (the short window) and two from the wallet, none refused', async () => {
			const ledger = createBatchingExecutor(store)
			const held = await Promise.all(Array.from({ length: 6 }, () => hold(CALL, [source], ledger)))
			expect(held.filter((one) => one.paidBy === source.subscriptionId)).toHaveLength(4)
			expect(held.filter((one) => one.paidBy === 0)).toHaveLength(2)
			expect(await periods()).toEqual([
				{ windowIndex: 0, sequence: 1, quota: 4 * CALL, used: 0, held: 4 * CALL, remain: 0 },
				{ windowIndex: 1, sequence: 1, quota: 8 * CALL, used: 0, held: 4 * CALL, remain: 4 * CALL },
			])
			expect((await wallet()).quota).toBe(WALLET - 2_000 - 2 * CALL)
			expect(await auditLedger(store)).toEqual([])
			for (const { requestId } of held) await settle(ledger, settlement(requestId, CALL - 10))
			expect(await periods()).toEqual([
				{ windowIndex: 0, sequence: 1, quota: 4 * CALL, used: 4 * (CALL - 10), held: 0, remain: 40 },
				{ windowIndex: 1, sequence: 1, quota: 8 * CALL, used: 4 * (CALL - 10), held: 0, remain: 4 * CALL + 40 },
			])
			// The wallet got back what it held beyond the charge; every call counts as used.
			expect(await wallet()).toEqual({ quota: WALLET - 2_000 - 2 * (CALL - 10), used: 6 * (CALL - 10), requests: 6 })
			const { logs } = store.tables
			const consumed = await store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))
			expect(consumed.map((line) => line.subscriptionId).sort()).toEqual([0, 0, source.subscriptionId, source.subscriptionId, source.subscriptionId, source.subscriptionId])
			expect(consumed.every((line) => line.cost === Math.round((CALL - 10) / 2))).toBe(true)
			expect(await auditLedger(store)).toEqual([])
		})

		test('a voided plan hold goes back to the windows it came from', async () => {
			const { requestId } = await hold()
			expect(await voidHold(store, requestId, 'upstream_failed')).toBe(true)
			expect(await periods()).toEqual([
				{ windowIndex: 0, sequence: 1, quota: 4 * CALL, used: 0, held: 0, remain: 4 * CALL },
				{ windowIndex: 1, sequence: 1, quota: 8 * CALL, used: 0, held: 0, remain: 8 * CALL },
			])
			expect((await wallet()).quota).toBe(WALLET - 2_000)
			expect(await auditLedger(store)).toEqual([])
		})

		test('a call costing more than its plan hold takes the rest from the windows while they have it, never below zero', async () => {
			const { requestId } = await hold(CALL)
			await settle(store, settlement(requestId, 3 * CALL))
			expect((await periods()).map(({ used, remain }) => ({ used, remain }))).toEqual([{ used: 3 * CALL, remain: CALL }, { used: 3 * CALL, remain: 5 * CALL }])
			const second = await hold(CALL)
			const outcome = await settle(store, settlement(second.requestId, 5 * CALL))
			// The short window had 1 call left: the charge stops there, and the log says the rest was short.
			expect(outcome).toMatchObject({ settled: true, charged: CALL, shortfall: 4 * CALL, subscriptionId: source.subscriptionId })
			expect((await periods()).map(({ used, remain }) => ({ used, remain }))).toEqual([{ used: 4 * CALL, remain: 0 }, { used: 4 * CALL, remain: 4 * CALL }])
			expect((await wallet()).quota).toBe(WALLET - 2_000)
			expect(await auditLedger(store)).toEqual([])
		})

		test('after the short window resets the plan pays again until the long window is spent', async () => {
			for (let call = 0; call < 4; call++) await settle(store, settlement((await hold()).requestId, CALL))
			expect((await hold()).paidBy).toBe(0)
			// The short window's period ends (as if its hour had passed): the next call starts a new one.
			await store.transaction(() => resetWindowsWork(source.subscriptionId, nowSeconds(), 0))
			const paid = []
			for (let call = 0; call < 6; call++) paid.push((await hold()).paidBy)
			expect(paid).toEqual([source.subscriptionId, source.subscriptionId, source.subscriptionId, source.subscriptionId, 0, 0])
			expect((await periods()).map(({ windowIndex, sequence, held, used, remain }) => ({ windowIndex, sequence, held, used, remain }))).toEqual([
				{ windowIndex: 0, sequence: 1, held: 0, used: 4 * CALL, remain: 0 },
				{ windowIndex: 1, sequence: 1, held: 4 * CALL, used: 4 * CALL, remain: 0 },
				{ windowIndex: 0, sequence: 2, held: 4 * CALL, used: 0, remain: 0 },
			])
			expect(await auditLedger(store)).toEqual([])
		})

		test('a window that resets while a call is in flight charges the period where the call began', async () => {
			const { requestId } = await hold()
			await store.transaction(() => resetWindowsWork(source.subscriptionId, nowSeconds()))
			// A call after the reset starts new periods with the full allowance.
			const after = await hold()
			await settle(store, settlement(requestId, CALL / 2))
			await settle(store, settlement(after.requestId, CALL))
			expect((await periods()).map(({ windowIndex, sequence, used, held, remain }) => ({ windowIndex, sequence, used, held, remain }))).toEqual([
				{ windowIndex: 0, sequence: 1, used: CALL / 2, held: 0, remain: 4 * CALL - CALL / 2 },
				{ windowIndex: 1, sequence: 1, used: CALL / 2, held: 0, remain: 8 * CALL - CALL / 2 },
				{ windowIndex: 0, sequence: 2, used: CALL, held: 0, remain: 3 * CALL },
				{ windowIndex: 1, sequence: 2, used: CALL, held: 0, remain: 7 * CALL },
			])
			expect(await auditLedger(store)).toEqual([])
		})

		test('a hold larger than a window goes to the wallet without starting a period', async () => {
			expect((await hold(5 * CALL)).paidBy).toBe(0)
			expect(await periods()).toEqual([])
			expect(await auditLedger(store)).toEqual([])
		})

		test('rolled-up holds keep the windows\' audit exact', async () => {
			for (let call = 0; call < 3; call++) await settle(store, settlement((await hold()).requestId, CALL))
			await settle(store, settlement((await hold(CALL, [])).requestId, CALL))
			expect(await rollUpClosedHolds(store, nowSeconds() + 10)).toBe(4)
			const { subscriptions } = store.tables
			const [subscription] = await store.db.select().from(subscriptions).where(eq(subscriptions.id, source.subscriptionId))
			expect(subscription!.rolledUp).toBe(3 * CALL)
			expect(await auditLedger(store)).toEqual([])
		})

		test('the audit finds a window whose figures do not add up', async () => {
			await hold()
			const { subscriptionPeriods } = store.tables
			await store.db.update(subscriptionPeriods).set({ remain: 1 }).where(eq(subscriptionPeriods.windowIndex, 0))
			exemptFromLedgerAudit(store, 'breaks a window on purpose')
			const kinds = (await auditLedger(store)).map((difference) => difference.kind)
			expect(kinds).toEqual(['period_balance'])
		})

		test('a grant with a reference already granted grants nothing', async () => {
			const first = await store.transaction((tx, tables) => grantWork(tx, tables, { userId, plan, source: 'epay', reference: 'epay:T1', price: 0, now: nowSeconds() }))
			const second = await store.transaction((tx, tables) => grantWork(tx, tables, { userId, plan, source: 'epay', reference: 'epay:T1', price: 0, now: nowSeconds() }))
			expect(first).toBeDefined()
			expect(second).toBeUndefined()
		})
	})

	test(`two nodes holding at once from one subscription on ${target.dialect} never take a window below zero`, async () => {
		const [first, second] = await target.openTwo()
		try {
			const { users, plans } = first.tables
			const [user] = await first.db.insert(users).values({ username: 'shared', password: 'x', affCode: 'shared' }).returning()
			await first.transaction(function* (tx, tables) {
				yield* applyCredit(tx, tables, { userId: user!.id, amount: WALLET, type: LOG_TYPE.topUp, content: 'test credit' })
			})
			const [bought] = await first.db.insert(plans).values({ name: 'shared', price: 0, durationSeconds: 30 * 24 * 3600, windows: JSON.stringify(WINDOWS) }).returning() as [PlanRecord]
			const subscription = await first.transaction((tx, tables) => purchaseWork(tx, tables, user!.id, bought, nowSeconds()))
			const sources = [{ subscriptionId: subscription.id, windows: WINDOWS }]
			const ledgers = [createBatchingExecutor(first), createBatchingExecutor(second)]
			const held = await Promise.all(Array.from({ length: 20 }, (_, index) => reserve(ledgers[index % 2]!, {
				requestId: `two-nodes-${index}`, userId: user!.id, tokenId: 0, tokenLimited: false, amount: CALL, node: `n/${index % 2}`, sources,
			})))
			expect(held.filter((paidBy) => paidBy === subscription.id)).toHaveLength(4)
			const { subscriptionPeriods } = first.tables
			const found = await first.db.select().from(subscriptionPeriods)
			expect(found.map(({ windowIndex, held: inFlight, remain }) => ({ windowIndex, held: inFlight, remain })).sort((a, b) => a.windowIndex - b.windowIndex))
				.toEqual([{ windowIndex: 0, held: 4 * CALL, remain: 0 }, { windowIndex: 1, held: 4 * CALL, remain: 4 * CALL }])
			for (let index = 0; index < 20; index++) await voidHold(ledgers[index % 2]!, `two-nodes-${index}`, 'test')
			expect(await auditLedger(first)).toEqual([])
		} finally {
			await first.close()
		}
	})
}
