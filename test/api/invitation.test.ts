/**
 * Invitation rewards (issue 6 scope 3, docs/specification/tokens-and-money.md#invitations): a new
 * account's quotas are ledger credits in the registration's transaction; the inviter's reward is
 * pending income that reaches the balance only through the transfer.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { USER_MESSAGES } from '@shared/user'
import { auditLedger } from '@/billing/audit'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { createFakeProviders, FAKE_CLIENT, type FakeProviders } from '../helpers/fake-oauth'
import { inEnglish } from '@shared/messages'
import { startFakeEpay, type FakeEpay, type ReceivedOrder } from '../helpers/fake-epay'

const NEW_USER_QUOTA = 100_000
const INVITEE_QUOTA = 250_000
const INVITER_QUOTA = 700_000
const QUOTA_PER_UNIT = 500_000

for (const target of databaseTargets()) {
	describe(`invitation rewards on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let providers: FakeProviders

		beforeEach(async () => {
			providers = createFakeProviders()
			ferry = await createTestApp(target, { fetch: providers.fetch })
			root = await ferry.loginRoot()
		})
		afterEach(() => ferry.close())

		async function setOption(key: string, value: string | number) {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value: String(value) } })
			if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
		}
		async function setRewards(newUser: number, invitee: number, inviter: number) {
			await setOption('QuotaForNewUser', newUser)
			await setOption('QuotaForInvitee', invitee)
			await setOption('QuotaForInviter', inviter)
		}
		async function register(username: string, affCode = '') {
			const answer = await ferry.call('POST', '/api/user/register', { body: { username, password: 'password123', password2: 'password123', aff_code: affCode } })
			if (!answer.body.success) throw new Error(`registering ${username} failed: ${answer.body.message}`)
			return ferry.login(username, 'password123')
		}
		const self = async (caller: Caller) => (await ferry.call('GET', '/api/user/self', { as: caller })).body.data
		const affCodeOf = async (caller: Caller) => (await ferry.call('GET', '/api/user/aff', { as: caller })).body.data as string
		async function logsOf(userId: number) {
			const { logs } = ferry.store.tables
			return ferry.store.db.select({ type: logs.type, quota: logs.quota, content: logs.content }).from(logs).where(eq(logs.userId, userId)).orderBy(logs.id)
		}
		const transfer = (caller: Caller, quota: number) => ferry.call('POST', '/api/user/aff_transfer', { as: caller, body: { quota } })

		test('an account registered through an invitation gets the new-user and invitee quotas as two system credits', async () => {
			await setRewards(NEW_USER_QUOTA, INVITEE_QUOTA, INVITER_QUOTA)
			const inviter = await register('captain')
			const invitee = await register('deckhand', await affCodeOf(inviter))
			const account = await self(invitee)
			expect(account.quota).toBe(NEW_USER_QUOTA + INVITEE_QUOTA)
			expect(account.inviter_id).toBe(inviter.userId)
			const lines = await logsOf(invitee.userId)
			expect(lines.map(({ type, quota }) => ({ type, quota }))).toEqual([
				{ type: LOG_TYPE.system, quota: NEW_USER_QUOTA },
				{ type: LOG_TYPE.system, quota: INVITEE_QUOTA },
			])
			expect(lines[1]!.content).toContain(String(inviter.userId))
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('the inviter gains pending and total income and an invite, but no balance, per invitee', async () => {
			await setRewards(NEW_USER_QUOTA, INVITEE_QUOTA, INVITER_QUOTA)
			const inviter = await register('captain')
			const code = await affCodeOf(inviter)
			await register('deckhand', code)
			await register('bosun', code)
			const account = await self(inviter)
			expect(account).toMatchObject({ aff_count: 2, aff_quota: 2 * INVITER_QUOTA, aff_history_quota: 2 * INVITER_QUOTA, quota: NEW_USER_QUOTA })
			expect((await logsOf(inviter.userId)).map(({ quota }) => quota)).toEqual([NEW_USER_QUOTA])
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('an unknown invitation code registers the account with the new-user quota only', async () => {
			await setRewards(NEW_USER_QUOTA, INVITEE_QUOTA, INVITER_QUOTA)
			const stranger = await register('stranger', 'no-such-code')
			expect(await self(stranger)).toMatchObject({ quota: NEW_USER_QUOTA, inviter_id: 0 })
			expect(await logsOf(stranger.userId)).toHaveLength(1)
		})

		test('with the quota options at zero a registration credits nothing and writes no log line, yet the invite counts', async () => {
			const inviter = await register('captain')
			const invitee = await register('deckhand', await affCodeOf(inviter))
			expect(await self(invitee)).toMatchObject({ quota: 0, inviter_id: inviter.userId })
			expect(await self(inviter)).toMatchObject({ quota: 0, aff_count: 1, aff_quota: 0, aff_history_quota: 0 })
			expect(await logsOf(invitee.userId)).toEqual([])
			expect(await logsOf(inviter.userId)).toEqual([])
		})

		test('users created by an administrator get the new-user quota through the ledger too', async () => {
			await setRewards(NEW_USER_QUOTA, INVITEE_QUOTA, INVITER_QUOTA)
			const made = await ferry.createUser('purser')
			expect((await self(made)).quota).toBe(NEW_USER_QUOTA)
			expect(await logsOf(made.userId)).toEqual([expect.objectContaining({ type: LOG_TYPE.system, quota: NEW_USER_QUOTA })])
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('an account created by a third-party sign-in through an invitation is rewarded like a registration', async () => {
			await setRewards(NEW_USER_QUOTA, INVITEE_QUOTA, INVITER_QUOTA)
			for (const [key, value] of Object.entries({ GitHubOAuthEnabled: 'true', GitHubClientId: FAKE_CLIENT.id, GitHubClientSecret: FAKE_CLIENT.secret })) await setOption(key, value)
			const inviter = await register('captain')
			providers.github.authorize('code-1', { id: 5832, login: 'octocat', name: 'The Octocat', email: null })
			const state = await ferry.call('GET', `/api/oauth/state?aff=${await affCodeOf(inviter)}`)
			const stateCookie = state.headers.getSetCookie().find((cookie) => cookie.startsWith('ferry_oauth_state='))!.split(';')[0]!
			const signedIn = await ferry.call('GET', `/api/oauth/github?code=code-1&state=${state.body.data}`, { headers: { cookie: stateCookie } })
			expect(signedIn.body.success).toBe(true)
			const created = signedIn.body.data.id as number
			expect((await logsOf(created)).map(({ type, quota }) => ({ type, quota }))).toEqual([
				{ type: LOG_TYPE.system, quota: NEW_USER_QUOTA },
				{ type: LOG_TYPE.system, quota: INVITEE_QUOTA },
			])
			expect(await self(inviter)).toMatchObject({ aff_count: 1, aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA })
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('a transfer below one quota-per-unit is refused with the catalogue message and moves nothing', async () => {
			await setRewards(0, 0, INVITER_QUOTA)
			const inviter = await register('captain')
			await register('deckhand', await affCodeOf(inviter))
			const answer = await transfer(inviter, QUOTA_PER_UNIT - 1)
			expect(answer.body).toMatchObject({ success: false, message: `transfer amount minimum is ${QUOTA_PER_UNIT}` })
			expect(answer.body.message).toStartWith('transfer amount minimum is')
			expect(await self(inviter)).toMatchObject({ quota: 0, aff_quota: INVITER_QUOTA })
			expect(await logsOf(inviter.userId)).toEqual([])
		})

		test('a transfer of more than the pending income is refused and moves nothing', async () => {
			await setRewards(0, 0, INVITER_QUOTA)
			const inviter = await register('captain')
			await register('deckhand', await affCodeOf(inviter))
			const answer = await transfer(inviter, INVITER_QUOTA + 1)
			expect(answer.body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.transferInsufficient) })
			expect(await self(inviter)).toMatchObject({ quota: 0, aff_quota: INVITER_QUOTA })
		})

		test('a valid transfer moves pending income to the balance once, with one system log line, and total income stays', async () => {
			await setRewards(0, 0, INVITER_QUOTA)
			const inviter = await register('captain')
			await register('deckhand', await affCodeOf(inviter))
			expect((await transfer(inviter, QUOTA_PER_UNIT)).body.success).toBe(true)
			expect(await self(inviter)).toMatchObject({ quota: QUOTA_PER_UNIT, aff_quota: INVITER_QUOTA - QUOTA_PER_UNIT, aff_history_quota: INVITER_QUOTA })
			// The rest is below the minimum and more than what is left: both refused, nothing moves twice.
			expect((await transfer(inviter, QUOTA_PER_UNIT)).body.success).toBe(false)
			expect((await self(inviter)).quota).toBe(QUOTA_PER_UNIT)
			expect(await logsOf(inviter.userId)).toEqual([expect.objectContaining({ type: LOG_TYPE.system, quota: QUOTA_PER_UNIT })])
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('concurrent transfers of the whole pending income credit it exactly once', async () => {
			await setRewards(0, 0, QUOTA_PER_UNIT)
			const inviter = await register('captain')
			await register('deckhand', await affCodeOf(inviter))
			const answers = await Promise.all(Array.from({ length: 10 }, () => transfer(inviter, QUOTA_PER_UNIT)))
			expect(answers.filter((answer) => answer.body.success)).toHaveLength(1)
			expect(await self(inviter)).toMatchObject({ quota: QUOTA_PER_UNIT, aff_quota: 0 })
			expect(await logsOf(inviter.userId)).toHaveLength(1)
			expect(await auditLedger(ferry.store)).toEqual([])
		})
	})

	describe(`the inviter's reward on the invitee's first paid top-up, on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let epay: FakeEpay

		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
			// The fake epay calls Ferry's notify URL over loopback HTTP, as the real service would.
			ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
			epay = startFakeEpay()
			const { options } = ferry.dependencies
			await options.set('ServerAddress', `http://127.0.0.1:${ferry.app.server!.port}`)
			await options.set('PayAddress', epay.address)
			await options.set('EpayId', epay.merchantId)
			await options.set('EpayKey', epay.merchantKey)
		})
		afterEach(async () => {
			await ferry.app.stop(true)
			await epay.stop()
			await ferry.close()
		})

		async function setOption(key: string, value: string | number) {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value: String(value) } })
			if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
		}
		async function register(username: string, affCode = '') {
			const answer = await ferry.call('POST', '/api/user/register', { body: { username, password: 'password123', aff_code: affCode } })
			if (!answer.body.success) throw new Error(`registering ${username} failed: ${answer.body.message}`)
			return ferry.login(username, 'password123')
		}
		const self = async (caller: Caller) => (await ferry.call('GET', '/api/user/self', { as: caller })).body.data
		const affCodeOf = async (caller: Caller) => (await ferry.call('GET', '/api/user/aff', { as: caller })).body.data as string
		async function pendingOf(userId: number) {
			const { users } = ferry.store.tables
			const [row] = await ferry.store.db.select({ owed: users.pendingInviterReward }).from(users).where(eq(users.id, userId))
			return row!.owed
		}
		/** Opens an order as the wallet page does and submits it to the fake service; answers what it received. */
		async function order(as: Caller, path: string, body: Record<string, unknown>): Promise<ReceivedOrder> {
			const answer = await ferry.call('POST', path, { as, body })
			if (!answer.body.success) throw new Error(`paying failed: ${answer.body.message}`)
			const submitted = await fetch((answer.body as unknown as { url: string }).url, { method: 'POST', body: new URLSearchParams(answer.body.data as Record<string, string>) })
			expect(submitted.status).toBe(200)
			return epay.orders.at(-1)!
		}
		const topUp = (as: Caller) => order(as, '/api/user/pay', { amount: 1, payment_method: 'alipay' })

		async function invitedPair() {
			await setOption('QuotaForInviter', INVITER_QUOTA)
			await setOption('InviterRewardOnFirstTopUp', 'true')
			const inviter = await register('captain')
			const invitee = await register('deckhand', await affCodeOf(inviter))
			return { inviter, invitee }
		}

		test('by default the inviter is rewarded at sign-up and a later top-up pays nothing more', async () => {
			await setOption('QuotaForInviter', INVITER_QUOTA)
			const inviter = await register('captain')
			const invitee = await register('deckhand', await affCodeOf(inviter))
			expect(await self(inviter)).toMatchObject({ aff_count: 1, aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA })
			expect(await pendingOf(invitee.userId)).toBe(0)
			expect((await epay.notify(await topUp(invitee))).text).toBe('success')
			expect(await self(inviter)).toMatchObject({ aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA })
		})

		test('with the option on, sign-up counts the invite but owes the reward; the first paid top-up pays it once, however often and however concurrently it is notified', async () => {
			const { inviter, invitee } = await invitedPair()
			expect(await self(inviter)).toMatchObject({ aff_count: 1, aff_quota: 0, aff_history_quota: 0, quota: 0 })
			expect(await pendingOf(invitee.userId)).toBe(INVITER_QUOTA)
			const first = await topUp(invitee)
			const replies = await Promise.all(Array.from({ length: 8 }, (_, index) => epay.notify(first, { method: index % 2 ? 'POST' : 'GET' })))
			expect(replies.map((reply) => reply.text)).toEqual(Array(8).fill('success'))
			expect(await self(inviter)).toMatchObject({ aff_count: 1, aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA, quota: 0 })
			expect(await pendingOf(invitee.userId)).toBe(0)
			// Two more top-ups, notified at the same moment: the reward was the first payment's alone.
			const [second, third] = [await topUp(invitee), await topUp(invitee)]
			await Promise.all([epay.notify(second!), epay.notify(third!), epay.notify(second!, { method: 'POST' })])
			expect(await self(inviter)).toMatchObject({ aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA })
			expect((await self(invitee)).quota).toBe(3 * QUOTA_PER_UNIT)
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('two first top-ups notified at the same moment pay the reward once', async () => {
			const { inviter, invitee } = await invitedPair()
			const orders = [await topUp(invitee), await topUp(invitee), await topUp(invitee)]
			const replies = await Promise.all(orders.flatMap((paid) => [epay.notify(paid), epay.notify(paid, { method: 'POST' })]))
			expect(replies.every((reply) => reply.text === 'success')).toBe(true)
			expect(await self(inviter)).toMatchObject({ aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA })
			expect((await self(invitee)).quota).toBe(3 * QUOTA_PER_UNIT)
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('an unpaid order, a refused notify and a redemption code pay no reward', async () => {
			const { inviter, invitee } = await invitedPair()
			const unpaid = await topUp(invitee)
			expect((await epay.notify(unpaid, { sign: '0'.repeat(32) })).text).toBe('fail')
			expect((await epay.notify(unpaid, { money: '0.01' })).text).toBe('fail')
			const created = await ferry.call('POST', '/api/redemption/', { as: root, body: { name: 'gift', quota: 5000, count: 1 } })
			expect((await ferry.call('POST', '/api/user/topup', { as: invitee, body: { key: created.body.data[0] } })).body.success).toBe(true)
			expect(await self(inviter)).toMatchObject({ aff_quota: 0, aff_history_quota: 0 })
			expect(await pendingOf(invitee.userId)).toBe(INVITER_QUOTA)
		})

		test('a plan paid online is a first payment too', async () => {
			const { inviter, invitee } = await invitedPair()
			const plan = (await ferry.call('POST', '/api/plan/', {
				as: root, body: { name: 'Coding', price: 2 * QUOTA_PER_UNIT, duration_seconds: 86_400, windows: [{ seconds: 3600, quota: 1000 }], enabled: true },
			})).body.data
			expect(plan?.id).toBeGreaterThan(0)
			const paid = await order(invitee, `/api/plan/${plan.id}/pay`, { payment_method: 'alipay' })
			await Promise.all([epay.notify(paid), epay.notify(paid, { method: 'POST' })])
			expect(await self(inviter)).toMatchObject({ aff_quota: INVITER_QUOTA, aff_history_quota: INVITER_QUOTA })
			expect(await pendingOf(invitee.userId)).toBe(0)
		})

		test('the reward owed is what the option said at sign-up, and a deleted inviter gets nothing', async () => {
			const { inviter, invitee } = await invitedPair()
			await setOption('QuotaForInviter', 1)
			const other = await register('bosun', await affCodeOf(inviter))
			expect(await pendingOf(other.userId)).toBe(1)
			expect((await epay.notify(await topUp(invitee))).text).toBe('success')
			expect(await self(inviter)).toMatchObject({ aff_quota: INVITER_QUOTA })
			expect((await ferry.call('DELETE', `/api/user/${inviter.userId}`, { as: root })).body.success).toBe(true)
			expect((await epay.notify(await topUp(other))).text).toBe('success')
			expect(await pendingOf(other.userId)).toBe(0)
			const { users } = ferry.store.tables
			const [gone] = await ferry.store.db.select({ affQuota: users.affQuota }).from(users).where(eq(users.id, inviter.userId))
			expect(gone!.affQuota).toBe(INVITER_QUOTA)
		})
	})
}
