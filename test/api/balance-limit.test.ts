/**
 * Balances stay exact integers within MAX_QUOTA (issue 12 item 5): every credit — redemption
 * codes, online top-ups, admin edits, invitation income and its transfer — and every edit of a
 * token's quota is checked against the maximum in the guarded update itself, counting what the
 * calls in flight hold, so neither one credit nor several at once can pass it.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { MAX_QUOTA, QUOTA_LIMIT_MESSAGES } from '@shared/quota-limit'
import { REDEMPTION_STATUS } from '@shared/redemption'
import { TOP_UP_MESSAGES, TOP_UP_STATUS } from '@shared/top-up'
import { epaySign } from '@/api/top-ups/epay'
import { reserve, voidHold } from '@/billing/holds'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish, withValues } from '@shared/messages'

/** The suite signs in several users; the login rate limit is another suite's subject. */
const allowAll = { hit: () => true }
const EPAY = { merchantId: '1001', merchantKey: 'balance-limit-key', address: 'https://pay.example' }
const QUOTA_PER_UNIT = 500_000

for (const target of databaseTargets()) {
	describe(`the balance maximum on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let alice: Caller
		let holdNumber = 0

		beforeEach(async () => {
			ferry = await createTestApp(target, { rateLimiter: allowAll })
			root = await ferry.loginRoot()
			alice = await ferry.createUser('alice')
		})
		afterEach(() => ferry.close())

		const self = async (caller: Caller) => (await ferry.call('GET', '/api/user/self', { as: caller })).body.data
		const setQuota = (id: number, quota: number) => ferry.call('PUT', '/api/user/', { as: root, body: { id, quota } })
		async function giveBalance(caller: Caller, quota: number) {
			const answer = await setQuota(caller.userId, quota)
			if (!answer.body.success) throw new Error(`setting the quota failed: ${answer.body.message}`)
		}
		async function createCode(quota: number): Promise<string> {
			const answer = await ferry.call('POST', '/api/redemption/', { as: root, body: { name: 'gift', quota } })
			if (!answer.body.success) throw new Error(`creating a code failed: ${answer.body.message}`)
			return answer.body.data[0]
		}
		const redeem = (caller: Caller, key: string) => ferry.call('POST', '/api/user/topup', { as: caller, body: { key } })
		async function codeStatus(key: string) {
			const { redemptions } = ferry.store.tables
			const [row] = await ferry.store.db.select({ status: redemptions.status }).from(redemptions).where(eq(redemptions.key, key))
			return row!.status
		}
		/** A call in flight: its hold takes `amount` from the balance until it is voided or settled. */
		async function holdFor(caller: Caller, amount: number) {
			const requestId = `in-flight-${++holdNumber}`
			await reserve(ferry.store, { requestId, userId: caller.userId, tokenId: 0, tokenLimited: false, amount, node: 'test' })
			return requestId
		}

		describe('crediting', () => {
			test('refuses a code that would lift a balance past the maximum, keeps the code unused, and takes one that reaches it exactly', async () => {
				await giveBalance(alice, MAX_QUOTA - 10)
				const tooMuch = await createCode(1_000_000_000)
				const refused = await redeem(alice, tooMuch)
				expect(refused.body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit) })
				expect(await codeStatus(tooMuch)).toBe(REDEMPTION_STATUS.unused)
				expect((await self(alice)).quota).toBe(MAX_QUOTA - 10)

				const exact = await redeem(alice, await createCode(10))
				expect(exact.body).toMatchObject({ success: true, data: 10 })
				// Read back exactly, through the API and from the database.
				expect((await self(alice)).quota).toBe(MAX_QUOTA)
				expect(String((await self(alice)).quota)).toBe('1000000000000000')
			})

			test('lets only one of three concurrent codes through when together they would pass the maximum', async () => {
				await giveBalance(alice, MAX_QUOTA - 1_500)
				const keys = [await createCode(1_000), await createCode(1_000), await createCode(1_000)]
				const answers = await Promise.all(keys.map((key) => redeem(alice, key)))
				expect(answers.filter((answer) => answer.body.success)).toHaveLength(1)
				expect(answers.filter((answer) => answer.body.message === inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit))).toHaveLength(2)
				expect((await self(alice)).quota).toBe(MAX_QUOTA - 500)
			})

			test('counts what calls in flight hold, so that voiding them never lifts the balance past the maximum', async () => {
				await giveBalance(alice, MAX_QUOTA - 100)
				const inFlight = await holdFor(alice, 50)
				expect((await self(alice)).quota).toBe(MAX_QUOTA - 150)
				const refused = await redeem(alice, await createCode(101))
				expect(refused.body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit) })
				expect((await redeem(alice, await createCode(100))).body.success).toBe(true)
				expect(await voidHold(ferry.store, inFlight, 'test')).toBe(true)
				expect((await self(alice)).quota).toBe(MAX_QUOTA)
			})

			test('an admin cannot set a quota above the maximum, nor one that the calls in flight would lift past it', async () => {
				const above = await setQuota(alice.userId, MAX_QUOTA + 1)
				expect({ status: above.status, body: above.body }).toMatchObject({ status: 400, body: { success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.amountLimit) } })
				expect((await self(alice)).quota).toBe(0)

				await giveBalance(alice, 1_000)
				await holdFor(alice, 400)
				const withHold = await setQuota(alice.userId, MAX_QUOTA)
				expect(withHold.body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit) })
				expect((await self(alice)).quota).toBe(600)
				expect((await setQuota(alice.userId, MAX_QUOTA - 400)).body.success).toBe(true)
				expect((await self(alice)).quota).toBe(MAX_QUOTA - 400)
			})
		})

		describe('amounts', () => {
			test('refuses redemption codes, token quotas and quota options above the maximum', async () => {
				const code = await ferry.call('POST', '/api/redemption/', { as: root, body: { name: 'huge', quota: MAX_QUOTA + 1 } })
				expect(code.body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.amountLimit) })
				const token = await ferry.call('POST', '/api/token/', { as: alice, body: { name: 'huge', remain_quota: MAX_QUOTA + 1 } })
				expect(token.body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.amountLimit) })
				for (const key of ['QuotaForNewUser', 'QuotaForInvitee', 'QuotaForInviter', 'QuotaRemindThreshold']) {
					const option = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value: String(MAX_QUOTA + 1) } })
					expect({ key, success: option.body.success }).toEqual({ key, success: false })
				}
				const { redemptions, tokens } = ferry.store.tables
				expect(await ferry.store.db.select().from(redemptions)).toHaveLength(0)
				expect(await ferry.store.db.select().from(tokens)).toHaveLength(0)
			})

			test('keeps a token quota and what its calls in flight hold within the maximum', async () => {
				const created = await ferry.call('POST', '/api/token/', { as: alice, body: { name: 'work', remain_quota: 1_000 } })
				const tokenId = created.body.data[0].id as number
				await giveBalance(alice, 10_000)
				await reserve(ferry.store, { requestId: 'token-in-flight', userId: alice.userId, tokenId, tokenLimited: true, amount: 300, node: 'test' })
				const edit = (remain_quota: number) => ferry.call('PUT', '/api/token/', { as: alice, body: { id: tokenId, remain_quota } })
				expect((await edit(MAX_QUOTA)).body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit) })
				expect((await edit(MAX_QUOTA - 300)).body).toMatchObject({ success: true, data: { remain_quota: MAX_QUOTA - 300 } })
				await voidHold(ferry.store, 'token-in-flight', 'test')
				const { tokens } = ferry.store.tables
				const [token] = await ferry.store.db.select({ remain: tokens.remainQuota }).from(tokens).where(eq(tokens.id, tokenId))
				expect(token!.remain).toBe(MAX_QUOTA)
			})
		})

		describe('invitation income', () => {
			async function register(username: string, affCode = '') {
				const answer = await ferry.call('POST', '/api/user/register', { body: { username, password: 'password123', password2: 'password123', aff_code: affCode } })
				if (!answer.body.success) throw new Error(`registering ${username} failed: ${answer.body.message}`)
				return ferry.login(username, 'password123')
			}

			test('stops growing at the maximum, and its transfer is refused whole when the balance cannot take it', async () => {
				const set = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'QuotaForInviter', value: String(MAX_QUOTA - 1) } })
				expect(set.body.success).toBe(true)
				const inviter = await register('captain')
				const code = (await ferry.call('GET', '/api/user/aff', { as: inviter })).body.data as string
				await register('deckhand', code)
				await register('bosun', code)
				expect(await self(inviter)).toMatchObject({ aff_quota: MAX_QUOTA, aff_history_quota: MAX_QUOTA, aff_count: 2 })

				await giveBalance(inviter, 1)
				const transfer = await ferry.call('POST', '/api/user/aff_transfer', { as: inviter, body: { quota: MAX_QUOTA } })
				expect(transfer.body).toMatchObject({ success: false, message: inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit) })
				expect(await self(inviter)).toMatchObject({ quota: 1, aff_quota: MAX_QUOTA })
				const fits = await ferry.call('POST', '/api/user/aff_transfer', { as: inviter, body: { quota: MAX_QUOTA - 1 } })
				expect(fits.body.success).toBe(true)
				expect(await self(inviter)).toMatchObject({ quota: MAX_QUOTA, aff_quota: 1 })
			})
		})

		describe('online top-up', () => {
			beforeEach(async () => {
				const { options } = ferry.dependencies
				await options.set('ServerAddress', 'https://ferry.example')
				await options.set('PayAddress', EPAY.address)
				await options.set('EpayId', EPAY.merchantId)
				await options.set('EpayKey', EPAY.merchantKey)
			})
			const pay = (amount: number) => ferry.call('POST', '/api/user/pay', { as: alice, body: { amount, payment_method: 'alipay' } })
			const refusal = inEnglish(withValues(TOP_UP_MESSAGES.beyondBalanceLimit, { max: MAX_QUOTA }))
			const topUpRows = () => ferry.store.db.select().from(ferry.store.tables.topUps)

			test('POST /api/user/pay refuses an amount whose quota the balance cannot take, before any order exists', async () => {
				await giveBalance(alice, MAX_QUOTA - QUOTA_PER_UNIT + 1)
				expect((await pay(1)).body).toMatchObject({ success: false, message: refusal })
				// Past the maximum whatever the balance: refused when priced, too.
				const priced = await ferry.call('POST', '/api/user/amount', { as: alice, body: { amount: MAX_QUOTA / QUOTA_PER_UNIT + 1 } })
				expect(priced.body).toMatchObject({ success: false, message: refusal })
				expect(await topUpRows()).toHaveLength(0)
				await giveBalance(alice, MAX_QUOTA - QUOTA_PER_UNIT)
				expect((await pay(1)).body.success).toBe(true)
			})

			test('a paid order the balance cannot take any more stays pending, is answered "fail", and is credited once there is room', async () => {
				const order = (await pay(2)).body.data as Record<string, string>
				await giveBalance(alice, MAX_QUOTA - QUOTA_PER_UNIT)
				const notice = { pid: EPAY.merchantId, out_trade_no: order.out_trade_no!, trade_no: 'SERVICE-1', type: 'alipay', money: order.money!, trade_status: 'TRADE_SUCCESS' }
				const query = new URLSearchParams({ ...notice, sign: epaySign(notice, EPAY.merchantKey), sign_type: 'MD5' })
				const notify = async () => (await ferry.app.handle(new Request(`http://localhost/api/user/epay/notify?${query}`))).text()

				expect(await notify()).toBe('fail')
				expect((await topUpRows())[0]).toMatchObject({ status: TOP_UP_STATUS.pending })
				expect((await self(alice)).quota).toBe(MAX_QUOTA - QUOTA_PER_UNIT)

				await giveBalance(alice, MAX_QUOTA - 2 * QUOTA_PER_UNIT)
				expect(await notify()).toBe('success')
				expect((await topUpRows())[0]).toMatchObject({ status: TOP_UP_STATUS.success })
				expect((await self(alice)).quota).toBe(MAX_QUOTA)
				const { logs } = ferry.store.tables
				const credits = await ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.topUp))
				expect(credits.map((log) => log.quota)).toEqual([2 * QUOTA_PER_UNIT])
			})
		})
	})
}
