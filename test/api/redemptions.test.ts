import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { REDEMPTION_MESSAGES, REDEMPTION_STATUS } from '@shared/redemption'
import { auditLedger } from '@/billing/audit'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

const KEY_SHAPE = /^[A-Za-z0-9]{32}$/
/** The suite signs in many users; the login rate limit is another suite's subject. */
const allowAll = { hit: () => true }

for (const target of databaseTargets()) {
	describe(`redemption codes on ${target.dialect}`, () => {
		let ferry: TestApp
		let admin: Caller
		let alice: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target, { rateLimiter: allowAll })
			admin = await ferry.createUser('admin', 10)
			alice = await ferry.createUser('alice')
		})
		afterEach(() => ferry.close())

		const create = (body: Record<string, unknown>, as: Caller = admin) => ferry.call('POST', '/api/redemption/', { as, body })
		async function createKeys(body: Record<string, unknown> = {}): Promise<string[]> {
			const answer = await create({ name: 'gift', quota: 5000, ...body })
			if (!answer.body.success) throw new Error(`creating codes failed: ${answer.body.message}`)
			return answer.body.data
		}
		async function storedByKey(key: string) {
			const { redemptions } = ferry.store.tables
			const [row] = await ferry.store.db.select().from(redemptions).where(eq(redemptions.key, key))
			return row!
		}
		const update = (body: Record<string, unknown>) => ferry.call('PUT', '/api/redemption/', { as: admin, body })
		const setStatus = (id: number, status: number) => ferry.call('PUT', '/api/redemption/?status_only=true', { as: admin, body: { id, status } })
		const redeemAs = (as: Caller, key: unknown) => ferry.call('POST', '/api/user/topup', { as, body: { key } })
		async function balanceOf(caller: Caller) {
			const { users } = ferry.store.tables
			const [row] = await ferry.store.db.select({ quota: users.quota }).from(users).where(eq(users.id, caller.userId))
			return row!.quota
		}
		async function topUpLogs(userId?: number) {
			const { logs } = ferry.store.tables
			const condition = userId === undefined ? eq(logs.type, LOG_TYPE.topUp) : and(eq(logs.type, LOG_TYPE.topUp), eq(logs.userId, userId))
			return ferry.store.db.select().from(logs).where(condition)
		}

		describe('creation', () => {
			test('creates the asked number of unused codes, each with a unique 32-letter key, and answers the keys', async () => {
				const keys = await createKeys({ count: 3 })
				expect(keys).toHaveLength(3)
				for (const key of keys) expect(key).toMatch(KEY_SHAPE)
				expect(new Set(keys).size).toBe(3)
				const row = await storedByKey(keys[0]!)
				expect(row).toMatchObject({ name: 'gift', quota: 5000, status: REDEMPTION_STATUS.unused, usedUserId: 0, redeemedTime: 0, userId: admin.userId })
			})

			test('defaults to one code of 100000 quota named after the formatted quota', async () => {
				const answer = await create({})
				expect(answer.body.success).toBe(true)
				expect(answer.body.data).toHaveLength(1)
				// 100000 quota at 500000 per dollar, shown in currency by default.
				expect(await storedByKey(answer.body.data[0])).toMatchObject({ name: '$0.20', quota: 100_000 })
			})

			test('refuses a name over 20 characters, a quota that is not a positive integer and a count outside 1 to 100', async () => {
				const cases: [Record<string, unknown>, string][] = [
					[{ name: 'x'.repeat(21) }, inEnglish(REDEMPTION_MESSAGES.nameLength)],
					[{ quota: 0 }, inEnglish(REDEMPTION_MESSAGES.quotaInvalid)],
					[{ quota: 1.5 }, inEnglish(REDEMPTION_MESSAGES.quotaInvalid)],
					[{ quota: 'many' }, inEnglish(REDEMPTION_MESSAGES.quotaInvalid)],
					[{ count: 0 }, inEnglish(REDEMPTION_MESSAGES.countInvalid)],
					[{ count: 2.5 }, inEnglish(REDEMPTION_MESSAGES.countInvalid)],
					[{ count: 101 }, inEnglish(REDEMPTION_MESSAGES.countTooLarge)],
					[{ expired_time: -5 }, inEnglish(REDEMPTION_MESSAGES.expiryFormat)],
				]
				for (const [body, message] of cases) {
					const answer = await create({ name: 'gift', ...body })
					expect({ body, status: answer.status, success: answer.body.success, message: answer.body.message })
						.toEqual({ body, status: 400, success: false, message })
				}
				const { redemptions } = ferry.store.tables
				expect(await ferry.store.db.select().from(redemptions)).toHaveLength(0)
			})

			test('creates a batch of 100 but refuses an expiry in the past', async () => {
				expect(await createKeys({ count: 100 })).toHaveLength(100)
				const past = await create({ name: 'old', expired_time: nowSeconds() - 10 })
				expect(past.body).toMatchObject({ success: false, message: inEnglish(REDEMPTION_MESSAGES.expiryPast) })
			})
		})

		describe('reading and searching', () => {
			test('lists codes newest first in pages with the total', async () => {
				await createKeys({ name: 'first' })
				await createKeys({ name: 'second', count: 2 })
				const page = await ferry.call('GET', '/api/redemption/?p=1&page_size=2', { as: admin })
				expect(page.body.data).toMatchObject({ page: 1, page_size: 2, total: 3 })
				expect(page.body.data.items.map((item: { name: string }) => item.name)).toEqual(['second', 'second'])
				const next = await ferry.call('GET', '/api/redemption/?p=2&page_size=2', { as: admin })
				expect(next.body.data.items.map((item: { name: string }) => item.name)).toEqual(['first'])
				expect(next.body.data.items[0].key).toMatch(KEY_SHAPE)
			})

			test('searches by whole id or by part of the name, any case', async () => {
				const [spring] = await createKeys({ name: 'Spring sale' })
				await createKeys({ name: 'autumn' })
				const springId = (await storedByKey(spring!)).id
				const byName = await ferry.call('GET', '/api/redemption/search?keyword=SPRING', { as: admin })
				expect(byName.body.data.items.map((item: { id: number }) => item.id)).toEqual([springId])
				const byId = await ferry.call('GET', `/api/redemption/search?keyword=${springId}`, { as: admin })
				expect(byId.body.data.items.map((item: { name: string }) => item.name)).toEqual(['Spring sale'])
				const none = await ferry.call('GET', '/api/redemption/search?keyword=winter', { as: admin })
				expect(none.body.data).toMatchObject({ items: [], total: 0 })
			})

			test('reads one code by id, and answers 404 for an unknown or deleted one', async () => {
				const [key] = await createKeys()
				const { id } = await storedByKey(key!)
				const read = await ferry.call('GET', `/api/redemption/${id}`, { as: admin })
				expect(read.body.data).toMatchObject({ id, key, name: 'gift', quota: 5000, status: REDEMPTION_STATUS.unused, used_user_id: 0 })
				expect((await ferry.call('GET', '/api/redemption/99999', { as: admin })).status).toBe(404)
				expect((await ferry.call('DELETE', `/api/redemption/${id}`, { as: admin })).body.success).toBe(true)
				expect((await ferry.call('GET', `/api/redemption/${id}`, { as: admin })).body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.notFound) })
			})
		})

		describe('roles', () => {
			test('an ordinary user gets 403 from every administration call and sees no code', async () => {
				const [key] = await createKeys()
				const { id } = await storedByKey(key!)
				const calls: [string, string, unknown?][] = [
					['GET', '/api/redemption/'], ['GET', '/api/redemption/search?keyword=gift'], ['GET', `/api/redemption/${id}`],
					['POST', '/api/redemption/', { name: 'mine', quota: 10 }], ['PUT', '/api/redemption/', { id, quota: 1 }],
					['PUT', '/api/redemption/?status_only=true', { id, status: 2 }], ['DELETE', `/api/redemption/${id}`],
				]
				for (const [method, path, body] of calls) {
					const answer = await ferry.call(method, path, { as: alice, body })
					expect({ path, method, status: answer.status, data: answer.body.data }).toEqual({ path, method, status: 403, data: undefined })
				}
				expect(await storedByKey(key!)).toMatchObject({ name: 'gift', quota: 5000, status: REDEMPTION_STATUS.unused, deletedAt: null })
			})

			test('redeeming needs a login', async () => {
				const [key] = await createKeys()
				expect((await ferry.call('POST', '/api/user/topup', { body: { key } })).status).toBe(401)
				expect((await storedByKey(key!)).status).toBe(REDEMPTION_STATUS.unused)
			})
		})

		describe('editing, enabling and deleting', () => {
			test('edits the name, quota and expiry of an unused code, keeping the key', async () => {
				const [key] = await createKeys()
				const { id } = await storedByKey(key!)
				const expiry = nowSeconds() + 3600
				const answer = await update({ id, name: 'renamed', quota: 777, expired_time: expiry })
				expect(answer.body.data).toMatchObject({ id, key, name: 'renamed', quota: 777, expired_time: expiry, status: REDEMPTION_STATUS.unused })
				expect((await update({ id, name: '' })).body).toMatchObject({ success: false, message: inEnglish(REDEMPTION_MESSAGES.nameLength) })
			})

			test('disables and enables an unused code, but never changes a used one', async () => {
				const [key] = await createKeys()
				const { id } = await storedByKey(key!)
				expect((await setStatus(id, REDEMPTION_STATUS.disabled)).body.data.status).toBe(REDEMPTION_STATUS.disabled)
				expect((await setStatus(id, REDEMPTION_STATUS.unused)).body.data.status).toBe(REDEMPTION_STATUS.unused)
				expect((await setStatus(id, REDEMPTION_STATUS.used)).body).toMatchObject({ success: false, message: inEnglish(REDEMPTION_MESSAGES.statusInvalid) })
				expect((await redeemAs(alice, key)).body.success).toBe(true)
				for (const status of [REDEMPTION_STATUS.unused, REDEMPTION_STATUS.disabled]) {
					expect((await setStatus(id, status)).body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.usedStatusLocked) })
				}
				expect((await update({ id, quota: 999_999 })).body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.usedNotEditable) })
				expect(await storedByKey(key!)).toMatchObject({ status: REDEMPTION_STATUS.used, quota: 5000, usedUserId: alice.userId })
			})

			test('deletes softly: the row stays, the list and redemption no longer find it', async () => {
				const [key] = await createKeys()
				const { id } = await storedByKey(key!)
				expect((await ferry.call('DELETE', `/api/redemption/${id}/`, { as: admin })).body.success).toBe(true)
				expect((await storedByKey(key!)).deletedAt).toBeGreaterThan(0)
				expect((await ferry.call('GET', '/api/redemption/', { as: admin })).body.data.total).toBe(0)
				expect((await redeemAs(alice, key)).body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.invalidCode) })
				expect((await ferry.call('DELETE', `/api/redemption/${id}`, { as: admin })).status).toBe(404)
			})
		})

		describe('redeeming', () => {
			test('changes only the balance, so the token caches are not told to drop their entries', async () => {
				const [key] = await createKeys()
				let notified = 0
				const stop = ferry.dependencies.changes.subscribe('users', () => notified++)
				expect((await redeemAs(alice, key)).body.success).toBe(true)
				stop()
				expect(notified).toBe(0)
			})

			test('credits the quota once, marks the code used by the user, and logs a top-up line without the key', async () => {
				const [key] = await createKeys()
				const before = await balanceOf(alice)
				const answer = await redeemAs(alice, key)
				expect(answer.status).toBe(200)
				expect(answer.body).toMatchObject({ success: true, data: 5000 })
				expect(await balanceOf(alice)).toBe(before + 5000)
				const row = await storedByKey(key!)
				expect(row).toMatchObject({ status: REDEMPTION_STATUS.used, usedUserId: alice.userId })
				expect(row.redeemedTime).toBeGreaterThan(0)
				const logs = await topUpLogs(alice.userId)
				expect(logs).toHaveLength(1)
				expect(logs[0]).toMatchObject({ quota: 5000 })
				expect(logs[0]!.content).toContain('gift')
				expect(logs[0]!.content).not.toContain(key!)
				const again = await redeemAs(alice, key)
				expect(again.body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.invalidCode) })
				expect(await balanceOf(alice)).toBe(before + 5000)
			})

			test('refuses an empty key with "please enter redemption code" and an unknown key with the invalid-code message', async () => {
				for (const key of ['', '   ', undefined]) {
					const answer = await redeemAs(alice, key)
					expect({ key, status: answer.status, body: answer.body }).toEqual({ key, status: 400, body: { success: false, message: inEnglish(REDEMPTION_MESSAGES.keyRequired) } })
				}
				const unknown = await redeemAs(alice, 'x'.repeat(32))
				expect(unknown.body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.invalidCode) })
			})

			test('a disabled, a used and an expired code cannot be redeemed and credit nothing', async () => {
				const [disabled, used, expired] = await createKeys({ count: 3 })
				await setStatus((await storedByKey(disabled!)).id, REDEMPTION_STATUS.disabled)
				const bob = await ferry.createUser('bob')
				expect((await redeemAs(bob, used)).body.success).toBe(true)
				const { redemptions } = ferry.store.tables
				await ferry.store.db.update(redemptions).set({ expiredTime: nowSeconds() - 1 }).where(eq(redemptions.key, expired!))
				const before = await balanceOf(alice)
				for (const key of [disabled, used, expired]) {
					expect((await redeemAs(alice, key)).body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.invalidCode) })
				}
				expect(await balanceOf(alice)).toBe(before)
				expect(await topUpLogs(alice.userId)).toHaveLength(0)
				expect((await storedByKey(disabled!)).status).toBe(REDEMPTION_STATUS.disabled)
				expect((await storedByKey(expired!)).status).toBe(REDEMPTION_STATUS.unused)
			})

			test('a code with a future expiry can be redeemed', async () => {
				const [key] = await createKeys({ expired_time: nowSeconds() + 3600 })
				expect((await redeemAs(alice, key)).body).toMatchObject({ success: true, data: 5000 })
			})

			test('twenty concurrent redemptions of one code by ten users: exactly one succeeds, one balance rises once, one top-up line, and the ledger balances', async () => {
				const [key] = await createKeys({ quota: 12_345 })
				const users: Caller[] = []
				for (let index = 0; index < 10; index++) users.push(await ferry.createUser(`racer${index}`))
				const before = await Promise.all(users.map(balanceOf))
				// Each user tries twice at once, so the race is both between users and within one.
				const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => redeemAs(users[index % users.length]!, key)))
				const winners = answers.filter((answer) => answer.body.success)
				expect(winners).toHaveLength(1)
				expect(winners[0]!.body.data).toBe(12_345)
				for (const answer of answers.filter((candidate) => !candidate.body.success)) {
					expect(answer.body).toEqual({ success: false, message: inEnglish(REDEMPTION_MESSAGES.invalidCode) })
				}
				const after = await Promise.all(users.map(balanceOf))
				const rises = after.map((quota, index) => quota - before[index]!).filter((rise) => rise !== 0)
				expect(rises).toEqual([12_345])
				const logs = await topUpLogs()
				expect(logs).toHaveLength(1)
				const row = await storedByKey(key!)
				expect(row.status).toBe(REDEMPTION_STATUS.used)
				expect(logs[0]!.userId).toBe(row.usedUserId)
				expect(after[users.findIndex((user) => user.userId === row.usedUserId)]).toBe(before[0]! + 12_345)
				expect(await auditLedger(ferry.store)).toEqual([])
			})
		})
	})
}
