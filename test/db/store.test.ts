import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { rows, run, type Store } from '@/db'
import { databaseTargets } from '../helpers/database'
import { exemptFromLedgerAudit } from '../helpers/ledger-audit'

for (const target of databaseTargets()) {
	describe(`the store on ${target.dialect}`, () => {
		let store: Store
		beforeEach(async () => {
			store = await target.open()
			exemptFromLedgerAudit(store, 'exercises raw units of work on balances, below the ledger')
		})
		afterEach(() => store.close())

		const addUser = (username: string, quota = 0) =>
			store.db.insert(store.tables.users).values({ username, password: 'x', affCode: username, quota }).returning()

		test('commits every statement of a unit of work together', async () => {
			const [user] = await addUser('alice', 10)
			const result = await store.transaction(function* (tx, { users }) {
				const [updated] = yield* rows(tx.update(users).set({ quota: sql`${users.quota} + 5` }).where(eq(users.id, user!.id)).returning())
				const changed = yield* run(tx.update(users).set({ requestCount: 1 }).where(eq(users.id, user!.id)))
				return { quota: updated!.quota, changed }
			})
			expect(result).toEqual({ quota: 15, changed: 1 })
			const [stored] = await store.db.select().from(store.tables.users)
			expect(stored!.requestCount).toBe(1)
		})

		test('rolls back every statement when the unit of work throws', async () => {
			const [user] = await addUser('bob', 10)
			const attempt = store.transaction(function* (tx, { users }) {
				yield* rows(tx.update(users).set({ quota: 99 }).where(eq(users.id, user!.id)).returning())
				throw new Error('refused halfway')
			})
			await expect(attempt).rejects.toThrow('refused halfway')
			const [stored] = await store.db.select().from(store.tables.users)
			expect(stored!.quota).toBe(10)
		})

		test('lets only one of many concurrent guarded debits take the last quota', async () => {
			const [user] = await addUser('carol', 100)
			const debit = () => store.transaction(function* (tx, { users }) {
				const taken = yield* rows(tx.update(users).set({ quota: sql`${users.quota} - 60` })
					.where(sql`${users.id} = ${user!.id} and ${users.quota} >= 60`).returning({ id: users.id }))
				return taken.length
			})
			const results = await Promise.all(Array.from({ length: 10 }, debit))
			expect(results.reduce((sum, taken) => sum + taken, 0)).toBe(1)
			const [stored] = await store.db.select().from(store.tables.users)
			expect(stored!.quota).toBe(40)
		})

		test('maps booleans, integers and nulls the same way on both dialects', async () => {
			const [user] = await addUser('dave')
			expect(user).toMatchObject({ passwordChangeRequired: false, deletedAt: null, role: 1, group: 'default' })
			expect(typeof user!.createdTime).toBe('number')
		})

		test('allows one live account per outside identity, freed when the account is deactivated', async () => {
			const { users } = store.tables
			const [first] = await store.db.insert(users).values({ username: 'gh1', password: 'x', affCode: 'gh1', githubId: '4242' }).returning()
			await expect(async () => await store.db.insert(users).values({ username: 'gh2', password: 'x', affCode: 'gh2', githubId: '4242' })).toThrow()
			await store.db.insert(users).values([{ username: 'n1', password: 'x', affCode: 'n1' }, { username: 'n2', password: 'x', affCode: 'n2' }])
			await store.db.update(users).set({ deletedAt: 1 }).where(eq(users.id, first!.id))
			await store.db.insert(users).values({ username: 'gh3', password: 'x', affCode: 'gh3', githubId: '4242' })
		})

		test('searches text without regard to case and treats wildcards literally', async () => {
			await addUser('Erin_X')
			await addUser('erinzx')
			const { users } = store.tables
			const found = await store.db.select({ username: users.username }).from(users).where(store.contains(users.username, 'rin_'))
			expect(found.map((row) => row.username)).toEqual(['Erin_X'])
		})
	})
}
