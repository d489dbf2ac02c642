import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { Store } from '@/db'
import { auditLedger } from '@/billing/audit'
import { createBatchingExecutor, type Executor } from '@/billing/batcher'
import { InsufficientQuotaError, reserve, settle, type Settlement, voidHold } from '@/billing/holds'
import { applyCredit } from '@/billing/ledger'
import { databaseTargets } from '../helpers/database'

const NODE = 'node-a/boot-1'

for (const target of databaseTargets()) {
	describe(`wallet holds of calls in flight, batched, on ${target.dialect}`, () => {
		let store: Store
		let requestNumber = 0

		async function createUser(store: Store, name: string, quota: number) {
			const [user] = await store.db.insert(store.tables.users).values({ username: name, password: 'x', affCode: name }).returning()
			if (quota > 0) {
				await store.transaction(function* (tx, tables) {
					yield* applyCredit(tx, tables, { userId: user!.id, amount: quota, type: LOG_TYPE.topUp, content: 'test credit' })
				})
			}
			return user!.id
		}
		async function createToken(store: Store, userId: number, remainQuota: number, unlimited = false) {
			const [token] = await store.db.insert(store.tables.tokens).values({ userId, keyHash: `h${++requestNumber}`, keyCipher: 'c', remainQuota, unlimitedQuota: unlimited }).returning()
			return token!.id
		}
		const hold = (ledger: Executor, userId: number, tokenId: number, amount: number, limited = true) => {
			const requestId = `request-${++requestNumber}`
			return reserve(ledger, { requestId, userId, tokenId, tokenLimited: limited, amount, node: NODE }).then(() => requestId)
		}
		const settlement = (requestId: string, actual: number, held: number | undefined): Settlement => ({
			requestId, actual, channelId: 7, heldFromWallet: held, cost: 11,
			log: { username: 'payer', tokenName: 't', modelName: 'gpt-4o', group: 'default', promptTokens: 10, completionTokens: 5, useTime: 1, isStream: true, channelName: 'channel seven', ip: '127.0.0.1', content: '', other: { model_ratio: 1.25 } },
		})
		const userRow = async (userId: number) => (await store.db.select().from(store.tables.users).where(eq(store.tables.users.id, userId)))[0]!
		const tokenRow = async (tokenId: number) => (await store.db.select().from(store.tables.tokens).where(eq(store.tables.tokens.id, tokenId)))[0]!

		beforeEach(async () => {
			store = await target.open()
			await store.db.insert(store.tables.channels).values({ id: 7, key: 'k', name: 'channel seven' })
		})
		afterEach(() => store.close())

		test('calls of many users and tokens in flight are held and settled exactly once each, with every counter and log line', async () => {
			const ledger = createBatchingExecutor(store)
			const users = [await createUser(store, 'first', 100_000), await createUser(store, 'second', 100_000)]
			const tokens = [await createToken(store, users[0]!, 50_000), await createToken(store, users[0]!, 0, true), await createToken(store, users[1]!, 50_000)]
			const owners = [users[0]!, users[0]!, users[1]!]
			const calls = Array.from({ length: 60 }, (_, index) => index % 3)
			const held = await Promise.all(calls.map((which) => hold(ledger, owners[which]!, tokens[which]!, 1_000, which !== 1)))
			expect(new Set(held).size).toBe(60)
			expect((await userRow(users[0]!)).quota).toBe(100_000 - 40 * 1_000)
			expect((await userRow(users[1]!)).quota).toBe(100_000 - 20 * 1_000)
			expect((await tokenRow(tokens[0]!)).remainQuota).toBe(50_000 - 20 * 1_000)
			expect((await tokenRow(tokens[1]!)).remainQuota).toBe(0)
			expect(await auditLedger(store)).toEqual([])

			const outcomes = await Promise.all(held.map((requestId) => settle(ledger, settlement(requestId, 400, 1_000))))
			expect(outcomes.every((outcome) => outcome.settled && outcome.charged === 400 && outcome.shortfall === 0)).toBe(true)
			expect(await userRow(users[0]!)).toMatchObject({ quota: 100_000 - 40 * 400, usedQuota: 40 * 400, requestCount: 40 })
			expect(await userRow(users[1]!)).toMatchObject({ quota: 100_000 - 20 * 400, usedQuota: 20 * 400, requestCount: 20 })
			expect(await tokenRow(tokens[0]!)).toMatchObject({ remainQuota: 50_000 - 20 * 400, usedQuota: 20 * 400 })
			expect(await tokenRow(tokens[1]!)).toMatchObject({ remainQuota: 0, usedQuota: 20 * 400 })
			const [channel] = await store.db.select().from(store.tables.channels).where(eq(store.tables.channels.id, 7))
			expect(channel!.usedQuota).toBe(60 * 400)
			const { logs } = store.tables
			const lines = await store.db.select().from(logs).where(inArray(logs.requestId, held))
			expect(lines).toHaveLength(60)
			expect(lines.find((line) => line.requestId === held[2])).toMatchObject({
				type: LOG_TYPE.consume, userId: users[1], tokenId: tokens[2], quota: 400, channelId: 7, channelName: 'channel seven', modelName: 'gpt-4o',
				isStream: true, promptTokens: 10, completionTokens: 5, ip: '127.0.0.1', cost: 11, subscriptionId: 0,
			})
			expect(JSON.parse(lines[0]!.other)).toEqual({ model_ratio: 1.25 })
			expect(await auditLedger(store)).toEqual([])

			// Settled means settled: a second settle or a late void of the same calls changes nothing.
			const again = await Promise.all(held.slice(0, 10).map((requestId) => settle(ledger, settlement(requestId, 400, 1_000))))
			expect(again.every((outcome) => !outcome.settled)).toBe(true)
			expect(await voidHold(ledger, held[0]!, 'late')).toBe(false)
			expect((await userRow(users[0]!)).requestCount).toBe(40)
		})

		test('50 calls at once on two nodes against a balance for 5: exactly 5 are held and nothing goes below zero', async () => {
			const [first, second] = await target.openTwo()
			try {
				await first.db.insert(first.tables.channels).values({ id: 7, key: 'k', name: 'channel seven' })
				const userId = await createUser(first, 'busy', 5_000)
				const tokenId = await createToken(first, userId, 0, true)
				const ledgers = [createBatchingExecutor(first), createBatchingExecutor(second)]
				const attempts = await Promise.allSettled(Array.from({ length: 50 }, (_, index) => hold(ledgers[index % 2]!, userId, tokenId, 1_000, false)))
				const held = attempts.flatMap((attempt) => attempt.status === 'fulfilled' ? [attempt.value] : [])
				expect(held).toHaveLength(5)
				expect(attempts.filter((attempt) => attempt.status === 'rejected').every((attempt) => (attempt as PromiseRejectedResult).reason instanceof InsufficientQuotaError)).toBe(true)
				const [user] = await first.db.select().from(first.tables.users).where(eq(first.tables.users.id, userId))
				expect(user!.quota).toBe(0)
				// What the calls did not spend is spendable again at once, from either node.
				await Promise.all(held.map((requestId, index) => settle(ledgers[index % 2]!, settlement(requestId, 200, 1_000))))
				const again = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => hold(ledgers[index % 2]!, userId, tokenId, 1_000, false)))
				expect(again.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(4)
				const [after] = await first.db.select().from(first.tables.users).where(eq(first.tables.users.id, userId))
				expect(after!.quota).toBe(0)
				expect(await auditLedger(first)).toEqual([])
			} finally {
				await first.close()
			}
		})

		test('a limited token that cannot cover all its calls in flight serves as many as it has room for, and the user pays only for those', async () => {
			const ledger = createBatchingExecutor(store)
			const userId = await createUser(store, 'payer', 100_000)
			const small = await createToken(store, userId, 3_500)
			const roomy = await createToken(store, userId, 100_000)
			const attempts = await Promise.allSettled([
				...Array.from({ length: 8 }, () => hold(ledger, userId, small, 1_000)),
				...Array.from({ length: 8 }, () => hold(ledger, userId, roomy, 1_000)),
			])
			const refused = attempts.flatMap((attempt) => attempt.status === 'rejected' ? [attempt.reason] : [])
			expect(refused).toHaveLength(5)
			expect(refused.every((reason) => reason instanceof InsufficientQuotaError && reason.owner === 'token')).toBe(true)
			expect((await userRow(userId)).quota).toBe(100_000 - 11 * 1_000)
			expect((await tokenRow(small)).remainQuota).toBe(500)
			expect((await tokenRow(roomy)).remainQuota).toBe(100_000 - 8_000)
			expect(await auditLedger(store)).toEqual([])
		})

		test('a charge above the hold, a voided hold and a balance asked for are settled as one at a time would', async () => {
			const ledger = createBatchingExecutor(store)
			const userId = await createUser(store, 'payer', 10_000)
			const tokenId = await createToken(store, userId, 0, true)
			const [above, voided, asked] = await Promise.all([hold(ledger, userId, tokenId, 1_000, false), hold(ledger, userId, tokenId, 1_000, false), hold(ledger, userId, tokenId, 1_000, false)])
			expect(await voidHold(ledger, voided!, 'upstream failed')).toBe(true)
			const [aboveOutcome, voidedOutcome, askedOutcome] = await Promise.all([
				settle(ledger, settlement(above!, 2_500, 1_000)),
				settle(ledger, settlement(voided!, 300, 1_000)),
				settle(ledger, { ...settlement(asked!, 300, 1_000), readBalance: true }),
			])
			expect(aboveOutcome).toMatchObject({ settled: true, charged: 2_500, shortfall: 0 })
			expect(voidedOutcome).toEqual({ settled: false })
			expect(askedOutcome).toMatchObject({ settled: true, charged: 300, balance: 10_000 - 2_500 - 300 })
			expect(await userRow(userId)).toMatchObject({ quota: 10_000 - 2_800, usedQuota: 2_800, requestCount: 2 })
			expect(await auditLedger(store)).toEqual([])
		})

		test('when a batch statement fails, its calls are held and settled one at a time, exactly once', async () => {
			// The batch statements are the only reads that take a whole batch as JSON: make them fail.
			const failing: Store = { ...store, read: (text, params) => text.includes('json_to_recordset') ? Promise.reject(new Error('connection lost')) : store.read(text, params) }
			const ledger = createBatchingExecutor(failing)
			const userId = await createUser(store, 'payer', 10_000)
			const tokenId = await createToken(store, userId, 4_000)
			const attempts = await Promise.allSettled(Array.from({ length: 6 }, () => hold(ledger, userId, tokenId, 1_000)))
			const held = attempts.flatMap((attempt) => attempt.status === 'fulfilled' ? [attempt.value] : [])
			expect(held).toHaveLength(4)
			const outcomes = await Promise.all(held.map((requestId) => settle(ledger, settlement(requestId, 250, 1_000))))
			expect(outcomes.every((outcome) => outcome.settled && outcome.charged === 250)).toBe(true)
			expect(await userRow(userId)).toMatchObject({ quota: 10_000 - 4 * 250, usedQuota: 4 * 250, requestCount: 4 })
			expect(await tokenRow(tokenId)).toMatchObject({ remainQuota: 4_000 - 4 * 250 })
			expect(await auditLedger(store)).toEqual([])
		})

		test('a consume log with a NUL or a lone surrogate in its texts is written without them, and fails neither its settle nor the batch it is in', async () => {
			// A value Postgres refuses would fail the batch statement, and then the call's own settle, leaving it unbilled.
			const failures: string[] = []
			const watched: Store = { ...store, read: <Row>(text: string, params?: unknown[]) => store.read<Row>(text, params).catch((error: unknown) => {
				failures.push(String(error))
				throw error
			}) }
			const ledger = createBatchingExecutor(watched)
			const userId = await createUser(store, 'payer', 10_000)
			const tokenId = await createToken(store, userId, 0, true)
			const held = await Promise.all(Array.from({ length: 4 }, () => hold(ledger, userId, tokenId, 1_000, false)))
			const odd = (requestId: string): Settlement => {
				const plain = settlement(requestId, 250, 1_000)
				return { ...plain, log: { ...plain.log!, modelName: 'gpt-\u00004o', tokenName: 't\u0000', content: 'quoted \ud800', other: { echoed: 'a\u0000b' } } }
			}
			const outcomes = await Promise.all(held.map((requestId, index) => settle(ledger, index === 1 ? odd(requestId) : settlement(requestId, 250, 1_000))))
			expect(outcomes.every((outcome) => outcome.settled && outcome.charged === 250)).toBe(true)
			expect(failures).toEqual([])
			const { logs } = store.tables
			const lines = await store.db.select().from(logs).where(inArray(logs.requestId, held))
			expect(lines).toHaveLength(4)
			const line = lines.find((entry) => entry.requestId === held[1])!
			expect([line.modelName, line.tokenName, line.content, JSON.parse(line.other).echoed]).toEqual(['gpt-4o', 't', 'quoted \ufffd', 'a\u0000b'])
			expect(await userRow(userId)).toMatchObject({ quota: 10_000 - 4 * 250, usedQuota: 4 * 250, requestCount: 4 })
			expect(await auditLedger(store)).toEqual([])
		})

		if (target.dialect === 'pg') {
			test('on Postgres the calls in flight are held and settled by the batch statements themselves', async () => {
				const ledger = createBatchingExecutor(store)
				const userId = await createUser(store, 'payer', 10_000)
				const tokenId = await createToken(store, userId, 5_000)
				const deadline = Math.floor(Date.now() / 1000) + 3600
				const reservation = (requestId: string, amount: number) => ({ requestId, userId, tokenId, limited: true, amount, node: NODE, deadline })
				// The token has room for two of the three: the batch takes none of them (the one-at-a-time path decides).
				expect(await Promise.all([ledger.walletHolds!.reserve(reservation('a', 1_000)), ledger.walletHolds!.reserve(reservation('b', 1_000))])).toEqual([true, true])
				expect(await Promise.all([ledger.walletHolds!.reserve(reservation('c', 2_000)), ledger.walletHolds!.reserve(reservation('d', 2_000))])).toEqual([false, false])
				expect(await userRow(userId)).toMatchObject({ quota: 8_000 })
				expect(await tokenRow(tokenId)).toMatchObject({ remainQuota: 3_000 })
				const log = { type: LOG_TYPE.consume, username: 'payer', tokenName: 't', modelName: 'm', group: 'default', promptTokens: 1, completionTokens: 1, useTime: 0, isStream: false, channelName: 'c', ip: '', content: '', other: '{}', cost: null }
				expect(await Promise.all([
					ledger.walletHolds!.settle({ requestId: 'a', actual: 100, channelId: 7, log }),
					ledger.walletHolds!.settle({ requestId: 'b', actual: 1_500, channelId: 7, log }),
				])).toEqual([{ charged: 100, balance: 8_900 }, undefined])
				expect(await tokenRow(tokenId)).toMatchObject({ remainQuota: 3_900, usedQuota: 100 })
				await settle(ledger, settlement('b', 1_500, 1_000))
				expect(await auditLedger(store)).toEqual([])
			})
		}
	})
}
