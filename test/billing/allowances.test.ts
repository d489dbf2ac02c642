import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq, like } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { Store } from '@/db'
import { ALLOWANCE, ALLOWANCE_RETURNED } from '@/billing/allowances'
import { auditLedger } from '@/billing/audit'
import { createBatchingExecutor, type Executor } from '@/billing/batcher'
import { InsufficientQuotaError, materialiseHold, reserve, settle, settleWork, type Settlement, voidHold } from '@/billing/holds'
import { applyCredit } from '@/billing/ledger'
import { INTERRUPTED, reconcileHolds } from '@/billing/reconciler'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'

const NODE_A = 'node-a/boot-1'
const NODE_B = 'node-b/boot-1'
const HOLD = 1_000

/** Allowances are Postgres's: on SQLite one node holds every wallet, and a call's hold costs no round trip. */
for (const target of databaseTargets().filter((candidate) => candidate.dialect === 'pg')) {
	describe('allowances: a busy wallet\'s calls held in memory from a slice of it, on Postgres', () => {
		let store: Store
		let requestNumber = 0

		async function createUser(on: Store, name: string, quota: number) {
			const [user] = await on.db.insert(on.tables.users).values({ username: name, password: 'x', affCode: name }).returning()
			await on.transaction(function* (tx, tables) {
				yield* applyCredit(tx, tables, { userId: user!.id, amount: quota, type: LOG_TYPE.topUp, content: 'test credit' })
			})
			const [token] = await on.db.insert(on.tables.tokens).values({ userId: user!.id, keyHash: `h-${name}`, keyCipher: 'c', remainQuota: 0, unlimitedQuota: true }).returning()
			return { userId: user!.id, tokenId: token!.id }
		}
		const hold = (ledger: Executor, { userId, tokenId }: { userId: number; tokenId: number }, amount = HOLD, node = NODE_A) => {
			const requestId = `request-${++requestNumber}`
			return reserve(ledger, { requestId, userId, tokenId, tokenLimited: false, amount, node }).then(() => requestId)
		}
		const settlement = (requestId: string, actual: number): Settlement => ({
			requestId, actual, channelId: 7, cost: 11,
			log: { username: 'payer', tokenName: 't', modelName: 'gpt-4o', group: 'default', promptTokens: 10, completionTokens: 5, useTime: 1, isStream: false, channelName: 'channel seven', ip: '127.0.0.1', content: '', other: { model_ratio: 1 } },
		})
		const userRow = async (on: Store, userId: number) => (await on.db.select().from(on.tables.users).where(eq(on.tables.users.id, userId)))[0]!
		const allowanceRows = (on: Store, state?: string) => {
			const { quotaHolds } = on.tables
			return on.db.select().from(quotaHolds).where(and(like(quotaHolds.requestId, 'allowance/%'), state ? eq(quotaHolds.state, state) : undefined))
		}
		/** Holds `count` calls the way a busy client sends them: a few at a time, without pause. */
		async function busy(ledger: Executor, owner: { userId: number; tokenId: number }, count: number) {
			const held: string[] = []
			for (let sent = 0; sent < count; sent += 4) held.push(...await Promise.all(Array.from({ length: Math.min(4, count - sent) }, () => hold(ledger, owner))))
			return held
		}
		/** Waits until no allowance is pending: an idle one goes back at a sweep, whenever this machine gets to it. */
		const allReturned = (on: Store = store) => eventually(async () => (await allowanceRows(on, 'pending')).length === 0)

		beforeEach(async () => {
			store = await target.open()
			await store.db.insert(store.tables.channels).values({ id: 7, key: 'k', name: 'channel seven' })
		})
		afterEach(() => store.close())

		test('a busy wallet\'s calls are held from one slice of it, charged exactly, and the slice goes back once the calls stop', async () => {
			const ledger = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const owner = await createUser(store, 'team', 10_000_000)
			const held = await busy(ledger, owner, 40)
			const [allowance] = await allowanceRows(store, 'pending')
			expect(allowance).toMatchObject({ userId: owner.userId, node: NODE_A, tokenId: 0 })
			// Most calls took no row of their own: their holds are in the allowance's.
			const callHolds = await store.db.select().from(store.tables.quotaHolds).where(like(store.tables.quotaHolds.requestId, 'request-%'))
			expect(callHolds.length).toBeLessThan(ALLOWANCE.busyCallsPerSecond)
			// The money is all there, in the wallet or in the allowance, with calls in flight.
			expect(await auditLedger(store)).toEqual([])

			const outcomes = await Promise.all(held.map((requestId) => settle(ledger, settlement(requestId, 400))))
			expect(outcomes.every((outcome) => outcome.settled && outcome.charged === 400 && outcome.shortfall === 0)).toBe(true)
			const lines = await store.db.select().from(store.tables.logs).where(eq(store.tables.logs.type, LOG_TYPE.consume))
			expect(lines).toHaveLength(40)
			expect(lines[0]).toMatchObject({ userId: owner.userId, tokenId: owner.tokenId, quota: 400, channelId: 7, cost: 11, modelName: 'gpt-4o' })
			expect(await auditLedger(store)).toEqual([])
			// Settled means settled: a second settle or a late void changes nothing.
			expect(await settle(ledger, settlement(held[0]!, 400))).toEqual({ settled: false })
			expect(await voidHold(ledger, held[1]!, 'late')).toBe(false)

			await allReturned()
			expect(await allowanceRows(store, 'pending')).toEqual([])
			expect((await allowanceRows(store))[0]).toMatchObject({ state: 'voided', reason: ALLOWANCE_RETURNED })
			expect(await userRow(store, owner.userId)).toMatchObject({ quota: 10_000_000 - 40 * 400, usedQuota: 40 * 400, requestCount: 40 })
			const [channel] = await store.db.select().from(store.tables.channels).where(eq(store.tables.channels.id, 7))
			expect(channel!.usedQuota).toBe(40 * 400)
			expect(ledger.allowances!.outstanding).toBe(0)
			expect(await auditLedger(store)).toEqual([])
		})

		test('a slice is at most a quarter of the balance, and a balance too small to slice serves exactly what it covers', async () => {
			const ledger = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const roomy = await createUser(store, 'roomy', 100 * HOLD)
			await busy(ledger, roomy, 24)
			const [allowance] = await allowanceRows(store, 'pending')
			expect(allowance!.amount).toBeLessThanOrEqual(100 * HOLD / ALLOWANCE.balanceShare)

			const small = await createUser(store, 'small', 5 * HOLD)
			const attempts = await Promise.allSettled(Array.from({ length: 50 }, () => hold(ledger, small)))
			expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(5)
			expect(attempts.filter((attempt) => attempt.status === 'rejected').every((attempt) => (attempt as PromiseRejectedResult).reason instanceof InsufficientQuotaError)).toBe(true)
			expect((await allowanceRows(store)).filter((row) => row.userId === small.userId)).toEqual([])
			expect((await userRow(store, small.userId)).quota).toBe(0)
			expect(await auditLedger(store)).toEqual([])
		})

		test('two nodes serve one busy wallet each from its own slice, never below zero, and both slices go back once the calls stop', async () => {
			const [first, second] = await target.openTwo()
			try {
				await first.db.insert(first.tables.channels).values({ id: 7, key: 'k', name: 'channel seven' })
				const owner = await createUser(first, 'shared', 400 * HOLD)
				const ledgers = [createBatchingExecutor(first, { allowancesOf: NODE_A }), createBatchingExecutor(second, { allowancesOf: NODE_B })]
				const rounds = await Promise.all(ledgers.map((ledger) => busy(ledger, owner, 60)))
				expect(new Set((await allowanceRows(first, 'pending')).map((row) => row.node))).toEqual(new Set([NODE_A, NODE_B]))
				expect((await userRow(first, owner.userId)).quota).toBeGreaterThanOrEqual(0)
				expect(await auditLedger(first)).toEqual([])
				await Promise.all(rounds.flatMap((held, index) => held.map((requestId) => settle(ledgers[index]!, settlement(requestId, 700)))))
				await allReturned(first)
				expect(await userRow(first, owner.userId)).toMatchObject({ quota: 400 * HOLD - 120 * 700, usedQuota: 120 * 700 })
				expect(await auditLedger(first)).toEqual([])
			} finally {
				await first.close()
			}
		})

		test('an allowance a reconciler returned while its node still held calls on it: those calls are charged from the wallet, once', async () => {
			const ledger = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const owner = await createUser(store, 'stalled', 1_000_000)
			const held = await busy(ledger, owner, 24)
			// The node stalled past its lease: another node's reconciler returns the allowance.
			await store.db.update(store.tables.quotaHolds).set({ deadline: 1 }).where(like(store.tables.quotaHolds.requestId, 'allowance/%'))
			const returned = await Promise.all([reconcileHolds(store, NODE_B), reconcileHolds(store, 'node-c/boot-1')])
			expect(returned[0]! + returned[1]!).toBeGreaterThanOrEqual(1)
			expect((await allowanceRows(store))[0]).toMatchObject({ state: 'voided', reason: INTERRUPTED })
			const outcomes = await Promise.all(held.map((requestId) => settle(ledger, settlement(requestId, 300))))
			expect(outcomes.every((outcome) => outcome.settled && outcome.charged === 300)).toBe(true)
			expect(await userRow(store, owner.userId)).toMatchObject({ quota: 1_000_000 - 24 * 300, usedQuota: 24 * 300, requestCount: 24 })
			expect(await auditLedger(store)).toEqual([])
		})

		test('a crashed node\'s allowance is returned exactly once, by whichever reconciler sees its lease expired first', async () => {
			const crashed = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const owner = await createUser(store, 'orphan', 1_000_000)
			const held = await busy(crashed, owner, 24)
			const settled = await Promise.all(held.slice(0, 12).map((requestId) => settle(crashed, settlement(requestId, 500))))
			expect(settled.every((outcome) => outcome.settled)).toBe(true)
			// The node dies with 12 calls in flight (some in rows of their own, some in the allowance) and its allowance outstanding.
			expect(await reconcileHolds(store, NODE_B)).toBe(0)
			const { quotaHolds } = store.tables
			const stranded = await store.db.select().from(quotaHolds).where(and(eq(quotaHolds.state, 'pending'), eq(quotaHolds.node, NODE_A)))
			expect(stranded.filter((row) => row.requestId.startsWith('allowance/'))).toHaveLength(1)
			// Its lease, and the calls' deadlines, run out.
			await store.db.update(quotaHolds).set({ deadline: 1 }).where(eq(quotaHolds.node, NODE_A))
			const returned = await Promise.all([reconcileHolds(store, NODE_B), reconcileHolds(store, 'node-c/boot-1'), reconcileHolds(store, 'node-d/boot-1')])
			expect(returned.reduce((sum, count) => sum + count, 0)).toBe(stranded.length)
			// The calls in flight were never charged; everything else is back in the wallet.
			expect(await userRow(store, owner.userId)).toMatchObject({ quota: 1_000_000 - 12 * 500, usedQuota: 12 * 500 })
			const notes = await store.db.select().from(store.tables.logs).where(eq(store.tables.logs.type, LOG_TYPE.system))
			expect(notes).toHaveLength(stranded.length)
			expect(await auditLedger(store)).toEqual([])
		})

		test('a hold in an allowance becomes a hold row of its own before a task adopts it or a unit of work of its own settles it', async () => {
			const ledger = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const owner = await createUser(store, 'tasks', 1_000_000)
			const held = await busy(ledger, owner, 24)
			const last = held.at(-1)!
			expect(ledger.allowances!.holds(last)).toBe(true)
			await materialiseHold(ledger, last)
			expect(ledger.allowances!.holds(last)).toBe(false)
			const [row] = await store.db.select().from(store.tables.quotaHolds).where(eq(store.tables.quotaHolds.requestId, last))
			expect(row).toMatchObject({ state: 'pending', amount: HOLD, userId: owner.userId })
			expect(await auditLedger(store)).toEqual([])
			// A task's end settles it like any hold row.
			const outcome = await store.transaction(() => settleWork(settlement(last, 2_000), store.dialect))
			expect(outcome).toMatchObject({ settled: true, charged: 2_000 })
			for (const requestId of held.slice(0, -1)) expect(await voidHold(ledger, requestId, 'upstream failed')).toBe(true)
			await allReturned()
			expect(await userRow(store, owner.userId)).toMatchObject({ quota: 1_000_000 - 2_000, usedQuota: 2_000 })
			expect(await auditLedger(store)).toEqual([])
		})

		test('a charge above the hold takes more from the allowance, and one no balance can cover is charged what there is', async () => {
			const ledger = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const owner = await createUser(store, 'heavy', 100 * HOLD)
			const held = await busy(ledger, owner, 24)
			const [above, heaviest] = held.filter((requestId) => ledger.allowances!.holds(requestId))
			expect(await settle(ledger, settlement(above!, 3 * HOLD))).toMatchObject({ settled: true, charged: 3 * HOLD, shortfall: 0 })
			for (const requestId of held) if (requestId !== above && requestId !== heaviest) await voidHold(ledger, requestId, 'upstream failed')
			// All that is left, in the wallet and the allowance, is 97 holds: a charge of 200 is charged 97, like a charge above any hold.
			const huge = await settle(ledger, { ...settlement(heaviest!, 200 * HOLD), readBalance: true })
			expect(huge).toMatchObject({ settled: true, charged: 97 * HOLD, shortfall: 103 * HOLD, balance: 0 })
			if (!huge.settled) throw new Error('not settled')
			await allReturned()
			const user = await userRow(store, owner.userId)
			expect(user.quota).toBeGreaterThanOrEqual(0)
			expect(user.quota + 3 * HOLD + huge.charged).toBe(100 * HOLD)
			expect(await auditLedger(store)).toEqual([])
		})

		test('at shutdown a node gives every allowance back once its calls in flight have ended', async () => {
			const ledger = createBatchingExecutor(store, { allowancesOf: NODE_A })
			const owners = [await createUser(store, 'one', 1_000_000), await createUser(store, 'two', 1_000_000)]
			const held = (await Promise.all(owners.map((owner) => busy(ledger, owner, 24)))).flat()
			expect(ledger.allowances!.outstanding).toBe(2)
			const stopping = ledger.allowances!.returnAll()
			await Bun.sleep(50)
			expect(await allowanceRows(store, 'pending')).toHaveLength(2)
			await Promise.all(held.map((requestId) => settle(ledger, settlement(requestId, 100))))
			await stopping
			expect(await allowanceRows(store, 'pending')).toEqual([])
			for (const owner of owners) expect((await userRow(store, owner.userId)).quota).toBe(1_000_000 - 24 * 100)
			expect(await auditLedger(store)).toEqual([])
		})
	})
}
