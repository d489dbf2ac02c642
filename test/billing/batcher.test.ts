import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { rows, type Store } from '@/db'
import { auditLedger } from '@/billing/audit'
import { createBatchingExecutor } from '@/billing/batcher'
import { InsufficientQuotaError, reserve, settle, voidHold } from '@/billing/holds'
import { applyCredit } from '@/billing/ledger'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`the batching ledger executor on ${target.dialect}`, () => {
		let store: Store
		let userId: number
		beforeEach(async () => {
			store = await target.open()
			const [user] = await store.db.insert(store.tables.users).values({ username: 'batch', password: 'x', affCode: 'batch' }).returning()
			userId = user!.id
			await store.transaction(function* (tx, tables) {
				yield* applyCredit(tx, tables, { userId, amount: 5_000, type: LOG_TYPE.topUp, content: 'credit' })
			})
		})
		afterEach(() => store.close())

		test('runs many concurrent reservations and settlements with the same guarantees as single transactions', async () => {
			const ledger = createBatchingExecutor(store)
			const attempts = await Promise.allSettled(Array.from({ length: 30 }, (_, index) =>
				reserve(ledger, { requestId: `r${index}`, userId, tokenId: 0, tokenLimited: false, amount: 500, node: 'n/1' }).then(() => `r${index}`)))
			const held = attempts.flatMap((attempt) => attempt.status === 'fulfilled' ? [attempt.value] : [])
			expect(held).toHaveLength(10)
			expect(attempts.filter((attempt) => attempt.status === 'rejected').every((attempt) => (attempt as PromiseRejectedResult).reason instanceof InsufficientQuotaError)).toBe(true)
			await Promise.all(held.map((requestId, index) => index % 2
				? voidHold(ledger, requestId, 'failed')
				: settle(ledger, { requestId, actual: 300, channelId: 0, log: undefined })))
			const [user] = await store.db.select().from(store.tables.users).where(eq(store.tables.users.id, userId))
			expect(user).toMatchObject({ quota: 5_000 - 5 * 300, usedQuota: 5 * 300, requestCount: 5 })
			expect(await auditLedger(store)).toEqual([])
		})

		test('a work that fails does not take the rest of its batch with it', async () => {
			const ledger = createBatchingExecutor(store)
			const { users } = store.tables
			const good = ledger.transaction(function* (tx) {
				return (yield* rows(tx.update(users).set({ requestCount: sql`${users.requestCount} + 1` }).where(eq(users.id, userId)).returning({ id: users.id }))).length
			})
			const bad = ledger.transaction(function* () {
				throw new Error('this work is broken')
			})
			expect(await good).toBe(1)
			await expect(bad).rejects.toThrow('this work is broken')
			const [user] = await store.db.select().from(users).where(eq(users.id, userId))
			expect(user!.requestCount).toBe(1)
		})
	})
}
