/**
 * Plans and subscriptions through the API and the relay (issue 28 items 1–3): the super admin
 * writes plans (bad terms refused in the caller's language), users buy them from the wallet once
 * whatever the races, calls are paid by the plan while every window has room and by the wallet
 * after, windows reset and pay again until the long one is spent, the subscription view shows
 * each window's use and reset time, admins see and reset a user's windows (audit-trailed), a
 * redemption code or the new-user option grants a plan, the log says which source paid, and the
 * ledger audit is exact throughout. On SQLite and Postgres.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { and, eq } from 'drizzle-orm'
import { DEFAULT_MODEL_PRICE } from '@shared/default-prices'
import { LOG_TYPE } from '@shared/log'
import { inEnglish, renderMessage } from '@shared/messages'
import { PLAN_MESSAGES } from '@shared/plan'
import { auditLedger } from '@/billing/audit'
import { nowSeconds } from '@/lib/clock'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { startFakeEpay, type FakeEpay } from '../helpers/fake-epay'

const MODEL = 'plan-model'
/** $0.002 a call: 1 000 quota. */
const CALL = 1_000
const HOUR = 3600
const WEEK = 7 * 24 * HOUR
const PLAN = { name: 'Coding', price: 5 * CALL, duration_seconds: 30 * 24 * HOUR, windows: [{ seconds: HOUR, quota: 4 * CALL }, { seconds: WEEK, quota: 8 * CALL }] }

for (const target of databaseTargets()) {
	describe(`plans and subscriptions on ${target.dialect}`, () => {
		let harness: RelayHarness
		let alice: Caller
		let client: OpenAI

		beforeEach(async () => {
			harness = await startRelayHarness(target)
			const upstream = harness.startUpstream({ promptTokens: 10, completionTokens: 5 })
			await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, [MODEL]: CALL / 500_000, 'other-model': CALL / 500_000 }))
			await harness.createChannel({ base_url: upstream.url, models: `${MODEL},other-model` })
			alice = await harness.ferry.createUser('alice')
			await fund(alice, 10 * CALL)
			client = harness.client((await harness.createToken({ name: 'alice' }, alice)).key)
		})
		afterEach(() => harness.close())

		const call = <Data = any>(method: string, path: string, body?: unknown, as: Caller = harness.root, language = 'en') =>
			harness.ferry.call<Data>(method, path, { as, body, headers: { 'accept-language': language } })
		async function fund(user: Caller, quota: number) {
			const answer = await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota } })
			if (!answer.body.success) throw new Error(answer.body.message)
		}
		async function createPlan(fields: Record<string, unknown> = {}) {
			const answer = await call('POST', '/api/plan/', { ...PLAN, ...fields })
			if (!answer.body.success) throw new Error(answer.body.message)
			return answer.body.data as { id: number }
		}
		const wallet = async (user: Caller = alice) => (await harness.ferry.call('GET', '/api/user/self', { as: user })).body.data.quota as number
		const chat = (model = MODEL) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] }).then(() => 'ok', (error) => String(error.code ?? error))
		/** Who paid each of the user's calls, oldest first: a subscription id, or 0 for the wallet. */
		async function payers(userId = alice.userId) {
			const { logs } = harness.ferry.store.tables
			const consumed = await harness.ferry.store.db.select().from(logs).where(and(eq(logs.userId, userId), eq(logs.type, LOG_TYPE.consume))).orderBy(logs.id)
			return consumed.map((line) => line.subscriptionId)
		}
		const subscriptions = async (user: Caller = alice) => (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: user })).body.data as {
			id: number; plan_id: number; name: string; expires_at: number; windows: { seconds: number; quota: number; used: number; held: number; remaining: number; resets_at: number | null }[]
		}[]

		test('a plan with windows of 4 and 8 calls is bought for its price; 6 calls at once draw 4 from it and 2 from the wallet; after the short window resets it pays again until the long one is spent; the audit is exact', async () => {
			const plan = await createPlan()
			const bought = await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)
			expect(bought.body).toMatchObject({ success: true, message: 'plan bought', data: { plan_id: plan.id, name: 'Coding' } })
			expect(await wallet()).toBe(5 * CALL)

			const outcomes = await Promise.all(Array.from({ length: 6 }, () => chat()))
			expect(outcomes).toEqual(Array(6).fill('ok'))
			const subscription = bought.body.data.id as number
			expect((await payers()).filter((payer) => payer === subscription)).toHaveLength(4)
			expect((await payers()).filter((payer) => payer === 0)).toHaveLength(2)
			expect(await wallet()).toBe(3 * CALL)

			const [view] = await subscriptions()
			const now = nowSeconds()
			expect(view!.windows.map(({ seconds, quota, used, held, remaining }) => ({ seconds, quota, used, held, remaining }))).toEqual([
				{ seconds: HOUR, quota: 4 * CALL, used: 4 * CALL, held: 0, remaining: 0 },
				{ seconds: WEEK, quota: 8 * CALL, used: 4 * CALL, held: 0, remaining: 4 * CALL },
			])
			expect(view!.windows[0]!.resets_at).toBeGreaterThanOrEqual(now + HOUR - 10)
			expect(view!.windows[0]!.resets_at).toBeLessThanOrEqual(now + HOUR)
			expect(view!.windows[1]!.resets_at).toBeGreaterThanOrEqual(now + WEEK - 10)
			expect(await auditLedger(harness.ferry.store)).toEqual([])

			// The short window's hour passes.
			const { subscriptionPeriods } = harness.ferry.store.tables
			await harness.ferry.store.db.update(subscriptionPeriods).set({ endsAt: nowSeconds() - 1 })
				.where(and(eq(subscriptionPeriods.subscriptionId, subscription), eq(subscriptionPeriods.windowIndex, 0)))
			const [reset] = await subscriptions()
			expect(reset!.windows[0]).toMatchObject({ used: 0, remaining: 4 * CALL, resets_at: null })
			for (let index = 0; index < 5; index++) expect(await chat()).toBe('ok')
			expect((await payers()).slice(6)).toEqual([subscription, subscription, subscription, subscription, 0])
			const [spent] = await subscriptions()
			expect(spent!.windows.map(({ used, remaining }) => ({ used, remaining }))).toEqual([{ used: 4 * CALL, remaining: 0 }, { used: 8 * CALL, remaining: 0 }])
			expect(await wallet()).toBe(2 * CALL)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('the log says which source paid each call', async () => {
			const plan = await createPlan()
			const subscription = (await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)).body.data.id
			expect(await chat()).toBe('ok')
			await fund(alice, 0)
			const own = await harness.ferry.call('GET', '/api/log/self?type=2', { as: alice })
			expect(own.body.data.items[0]).toMatchObject({ subscription_id: subscription, other: { plan_name: 'Coding', subscription_id: subscription } })
			const admin = await call('GET', `/api/log/?type=2&username=alice`)
			expect(admin.body.data.items[0]).toMatchObject({ subscription_id: subscription, cost: null })
		})

		test('concurrent purchases of one plan charge once, and a second purchase while it is active is refused', async () => {
			const plan = await createPlan()
			const answers = await Promise.all(Array.from({ length: 8 }, () => call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)))
			expect(answers.filter((answer) => answer.body.success)).toHaveLength(1)
			expect(answers.filter((answer) => !answer.body.success).map((answer) => answer.body.message)).toEqual(Array(7).fill(inEnglish(PLAN_MESSAGES.alreadySubscribed)))
			expect(await wallet()).toBe(5 * CALL)
			expect(await subscriptions()).toHaveLength(1)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a purchase the wallet cannot pay is refused in the caller\'s language with nothing charged', async () => {
			const plan = await createPlan({ price: 11 * CALL })
			const refused = await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice, 'zh-CN')
			expect(refused.body).toEqual({ success: false, message: renderMessage('zh', PLAN_MESSAGES.insufficientQuota) })
			expect(await wallet()).toBe(10 * CALL)
			expect(await subscriptions()).toEqual([])
		})

		test('a plan restricted to models pays only for them; a disabled plan is not sold and users do not see it', async () => {
			const plan = await createPlan({ models: ['other-model'] })
			await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)
			expect(await chat(MODEL)).toBe('ok')
			expect(await chat('other-model')).toBe('ok')
			const subscription = (await subscriptions())[0]!.id
			expect(await payers()).toEqual([0, subscription])
			const hidden = await createPlan({ name: 'Hidden', enabled: false })
			expect((await call('GET', '/api/plan/', undefined, alice)).body.data.map((found: { id: number }) => found.id)).toEqual([plan.id])
			expect((await call('GET', '/api/plan/')).body.data.map((found: { id: number }) => found.id).sort()).toEqual([plan.id, hidden.id].sort())
			expect((await call('POST', `/api/plan/${hidden.id}/purchase`, undefined, alice)).body).toEqual({ success: false, message: inEnglish(PLAN_MESSAGES.disabled) })
		})

		test('a plan with a group moves its subscriber into that group while it is active', async () => {
			await harness.ferry.dependencies.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.5 }))
			await harness.createChannel({ base_url: harness.upstreams[0]!.url, models: 'vip-only', group: 'vip' })
			await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, [MODEL]: CALL / 500_000, 'vip-only': CALL / 500_000 }))
			expect(await chat('vip-only')).not.toBe('ok')
			const plan = await createPlan({ group: 'vip', models: ['nothing-else'] })
			await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)
			expect(await chat('vip-only')).toBe('ok')
			// Paid from the wallet (the plan covers another model), at the vip group's ratio.
			expect(await wallet()).toBe(5 * CALL - CALL / 2)
		})

		test('bad terms are refused in the caller\'s language, and only the super admin writes plans', async () => {
			const refusals: [Record<string, unknown>, string][] = [
				[{ windows: [] }, PLAN_MESSAGES.windowCount],
				[{ windows: Array(9).fill({ seconds: HOUR, quota: 1 }) }, PLAN_MESSAGES.windowCount],
				[{ windows: [{ seconds: 59, quota: 1 }] }, PLAN_MESSAGES.windowSeconds],
				[{ windows: [{ seconds: 367 * 24 * HOUR, quota: 1 }] }, PLAN_MESSAGES.windowSeconds],
				[{ windows: [{ seconds: HOUR, quota: 0 }] }, PLAN_MESSAGES.windowQuota],
				[{ windows: [{ seconds: HOUR, quota: 1e16 }] }, PLAN_MESSAGES.windowQuota],
				[{ duration_seconds: HOUR, windows: [{ seconds: WEEK, quota: 1 }] }, PLAN_MESSAGES.durationShorterThanWindow],
				[{ price: -1 }, PLAN_MESSAGES.priceInvalid],
				[{ name: '' }, PLAN_MESSAGES.nameRequired],
			]
			for (const [fields, message] of refusals) {
				const answer = await call('POST', '/api/plan/', { ...PLAN, ...fields }, harness.root, 'zh-CN')
				expect(answer.status).toBe(400)
				expect(answer.body.success).toBe(false)
				expect(answer.body.message).toContain(renderMessage('zh', message as never))
			}
			const admin = await harness.ferry.createUser('helper', 10)
			expect((await call('POST', '/api/plan/', PLAN, admin)).status).toBe(403)
			expect((await call('GET', '/api/plan/')).body.data).toEqual([])
		})

		test('editing or deleting a plan leaves granted subscriptions their terms', async () => {
			const plan = await createPlan()
			await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)
			const edited = await call('PUT', '/api/plan/', { ...PLAN, id: plan.id, name: 'Renamed', windows: [{ seconds: HOUR, quota: 1 }] })
			expect(edited.body.data).toMatchObject({ name: 'Renamed', windows: [{ seconds: HOUR, quota: 1 }] })
			expect((await call('DELETE', `/api/plan/${plan.id}`)).body.success).toBe(true)
			expect((await call('GET', '/api/plan/')).body.data).toEqual([])
			const [kept] = await subscriptions()
			expect(kept).toMatchObject({ name: 'Coding', windows: [{ quota: 4 * CALL }, { quota: 8 * CALL }] })
			expect(await chat()).toBe('ok')
			expect(await payers()).toEqual([kept!.id])
		})

		test('admins see a user\'s windows and reset them, with a line in the audit trail; not a user of their own rank', async () => {
			const plan = await createPlan()
			const subscription = (await call('POST', `/api/plan/${plan.id}/purchase`, undefined, alice)).body.data.id
			for (let index = 0; index < 4; index++) await chat()
			const admin = await harness.ferry.createUser('helper', 10)
			const seen = await call('GET', `/api/user/${alice.userId}/subscriptions`, undefined, admin)
			expect(seen.body.data[0].windows.map((window: { used: number }) => window.used)).toEqual([4 * CALL, 4 * CALL])
			const reset = await call('POST', `/api/user/${alice.userId}/subscriptions/${subscription}/reset`, { window: 0 }, admin)
			expect(reset.body).toMatchObject({ success: true, data: { windows: [{ used: 0, resets_at: null }, { used: 4 * CALL }] } })
			expect(await chat()).toBe('ok')
			expect((await payers()).at(-1)).toBe(subscription)
			const { logs } = harness.ferry.store.tables
			const audit = await harness.ferry.store.db.select().from(logs).where(and(eq(logs.userId, admin.userId), eq(logs.type, LOG_TYPE.manage)))
			expect(audit.some((line) => JSON.parse(line.other).admin_action?.action === 'subscription.reset')).toBe(true)
			const other = await harness.ferry.createUser('peer', 10)
			expect((await call('GET', `/api/user/${other.userId}/subscriptions`, undefined, admin)).body.success).toBe(false)
			expect((await call('POST', `/api/user/${alice.userId}/subscriptions/${subscription}/reset`, { window: 5 }, admin)).body.message).toBe(inEnglish(PLAN_MESSAGES.windowNotFound))
			expect((await call('GET', `/api/user/${alice.userId}/subscriptions`, undefined, alice)).status).toBe(403)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a redemption code with a plan grants the plan once, instead of quota', async () => {
			const plan = await createPlan()
			const created = await call('POST', '/api/redemption/', { name: 'gift', plan_id: plan.id, count: 1 })
			const key = created.body.data[0] as string
			const codes = await call('GET', '/api/redemption/')
			expect(codes.body.data.items[0]).toMatchObject({ plan_id: plan.id, quota: 0 })
			const answers = await Promise.all(Array.from({ length: 4 }, () => harness.ferry.call('POST', '/api/user/topup', { as: alice, body: { key } })))
			expect(answers.filter((answer) => answer.body.success)).toHaveLength(1)
			expect(answers.find((answer) => answer.body.success)!.body.message).toBe('redeemed: you now have the plan "Coding"')
			expect(await wallet()).toBe(10 * CALL)
			const [granted] = await subscriptions()
			expect(granted).toMatchObject({ plan_id: plan.id, name: 'Coding' })
			expect(await chat()).toBe('ok')
			expect(await payers()).toEqual([granted!.id])
			expect((await call('POST', '/api/redemption/', { name: 'bad', plan_id: 999_999 })).body.message).toBe(inEnglish(PLAN_MESSAGES.planCodeUnknownPlan))
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('DefaultPlanId gives every new account the plan; an unknown plan cannot be set', async () => {
			const plan = await createPlan()
			expect((await call('PUT', '/api/option/', { key: 'DefaultPlanId', value: '999999' })).body.message).toBe(inEnglish(PLAN_MESSAGES.defaultPlanUnknown))
			expect((await call('PUT', '/api/option/', { key: 'DefaultPlanId', value: String(plan.id) })).body.success).toBe(true)
			const bob = await harness.ferry.createUser('bob')
			const [granted] = await subscriptions(bob)
			expect(granted).toMatchObject({ plan_id: plan.id })
			const bobClient = harness.client((await harness.createToken({ name: 'bob' }, bob)).key)
			expect(await bobClient.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).then(() => 'ok')).toBe('ok')
			expect(await payers(bob.userId)).toEqual([granted!.id])
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})

	describe(`paying for a plan online on ${target.dialect}`, () => {
		let harness: RelayHarness
		let epay: FakeEpay

		beforeEach(async () => {
			harness = await startRelayHarness(target)
			epay = startFakeEpay()
			const { options } = harness.ferry.dependencies
			await options.set('ServerAddress', harness.baseUrl)
			await options.set('PayAddress', epay.address)
			await options.set('EpayId', epay.merchantId)
			await options.set('EpayKey', epay.merchantKey)
		})
		afterEach(async () => {
			await epay.stop()
			await harness.close()
		})

		test('an order for a plan is priced like a top-up and its notify grants the plan once, crediting no quota', async () => {
			const alice = await harness.ferry.createUser('alice')
			const plan = (await harness.ferry.call('POST', '/api/plan/', { as: harness.root, body: { ...PLAN, price: 2 * 500_000 } })).body.data
			const answer = await harness.ferry.call('POST', `/api/plan/${plan.id}/pay`, { as: alice, body: { payment_method: 'alipay' } })
			expect(answer.body).toMatchObject({ success: true, url: `${epay.address}/submit.php`, data: { name: `PLAN${plan.id}`, money: '14.60' } })
			const submitted = await fetch((answer.body as unknown as { url: string }).url, { method: 'POST', body: new URLSearchParams(answer.body.data as Record<string, string>) })
			expect(submitted.status).toBe(200)
			const order = epay.orders.at(-1)!
			const replies = await Promise.all(Array.from({ length: 6 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
			expect(replies.map((reply) => reply.text)).toEqual(Array(6).fill('success'))
			const subscriptions = (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: alice })).body.data
			expect(subscriptions).toHaveLength(1)
			expect(subscriptions[0]).toMatchObject({ plan_id: plan.id, source: 'epay', price: 2 * 500_000 })
			expect((await harness.ferry.call('GET', '/api/user/self', { as: alice })).body.data.quota).toBe(0)
			const orders = (await harness.ferry.call('GET', '/api/user/topup/self', { as: alice })).body.data.items
			expect(orders[0]).toMatchObject({ plan_id: plan.id, status: 'success', amount: 0 })
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		/** Opens and submits an order for the plan as alice; answers the order the payment service received. */
		async function orderPlan(user: Caller, planId: number) {
			const answer = await harness.ferry.call('POST', `/api/plan/${planId}/pay`, { as: user, body: { payment_method: 'alipay' } })
			if (!answer.body.success) throw new Error(answer.body.message)
			const submitted = await fetch((answer.body as unknown as { url: string }).url, { method: 'POST', body: new URLSearchParams(answer.body.data as Record<string, string>) })
			expect(submitted.status).toBe(200)
			return epay.orders.at(-1)!
		}
		const editPlan = async (fields: Record<string, unknown>) => {
			const answer = await harness.ferry.call('PUT', '/api/plan/', { as: harness.root, body: fields })
			if (!answer.body.success) throw new Error(answer.body.message)
		}
		const EDITED = { name: 'Edited', price: 9 * 500_000, duration_seconds: WEEK, windows: [{ seconds: HOUR, quota: CALL }], models: ['other-model'], group: 'vip', enabled: false }

		test('a plan order grants the terms it was sold with, once, though the admin edited the plan (price, duration, windows, models, group) and took it off sale before the notify', async () => {
			const upstream = harness.startUpstream({ promptTokens: 10, completionTokens: 5 })
			await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, [MODEL]: CALL / 500_000, 'other-model': CALL / 500_000 }))
			await harness.createChannel({ base_url: upstream.url, models: `${MODEL},other-model` })
			const alice = await harness.ferry.createUser('alice')
			const plan = (await harness.ferry.call('POST', '/api/plan/', { as: harness.root, body: { ...PLAN, price: 2 * 500_000, models: [MODEL] } })).body.data
			const order = await orderPlan(alice, plan.id)
			// The admin rewrites the plan while the payer is at the payment service.
			await editPlan({ ...EDITED, id: plan.id })

			const replies = await Promise.all(Array.from({ length: 6 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
			expect(replies.map((reply) => reply.text)).toEqual(Array(6).fill('success'))
			for (let replay = 0; replay < 3; replay++) expect((await epay.notify(order)).text).toBe('success')

			const subscriptions = (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: alice })).body.data
			expect(subscriptions).toHaveLength(1)
			const [granted] = subscriptions
			expect(granted).toMatchObject({
				plan_id: plan.id, name: 'Coding', source: 'epay', price: 2 * 500_000, models: [MODEL], group: '',
				windows: [{ seconds: HOUR, quota: 4 * CALL, remaining: 4 * CALL }, { seconds: WEEK, quota: 8 * CALL, remaining: 8 * CALL }],
			})
			expect(granted.expires_at - granted.starts_at).toBe(PLAN.duration_seconds)
			const { logs } = harness.ferry.store.tables
			const grantLines = await harness.ferry.store.db.select().from(logs).where(and(eq(logs.userId, alice.userId), eq(logs.type, LOG_TYPE.system)))
			expect(grantLines).toHaveLength(1)
			expect(grantLines[0]!.content).toContain('Coding')

			// The relay applies the promised terms: a call to the promised model is paid by the plan (the wallet is empty).
			const client = harness.client((await harness.createToken({ name: 'alice' }, alice)).key)
			await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
			const [used] = (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: alice })).body.data
			expect(used.windows.map((window: { remaining: number }) => window.remaining)).toEqual([3 * CALL, 7 * CALL])
			expect((await harness.ferry.call('GET', '/api/user/self', { as: alice })).body.data.quota).toBe(0)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('concurrent first notifies of a plan order whose plan was deleted after the order grant its recorded terms exactly once', async () => {
			const alice = await harness.ferry.createUser('alice')
			const plan = (await harness.ferry.call('POST', '/api/plan/', { as: harness.root, body: { ...PLAN, price: 2 * 500_000 } })).body.data
			const order = await orderPlan(alice, plan.id)
			await editPlan({ ...EDITED, id: plan.id })
			expect((await harness.ferry.call('DELETE', `/api/plan/${plan.id}`, { as: harness.root })).body.success).toBe(true)

			const replies = await Promise.all(Array.from({ length: 10 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
			expect(replies.map((reply) => reply.text)).toEqual(Array(10).fill('success'))
			const subscriptions = (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: alice })).body.data
			expect(subscriptions).toHaveLength(1)
			expect(subscriptions[0]).toMatchObject({ name: 'Coding', price: 2 * 500_000, models: [], windows: [{ quota: 4 * CALL }, { quota: 8 * CALL }] })
			expect(subscriptions[0].expires_at - subscriptions[0].starts_at).toBe(PLAN.duration_seconds)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a plan order recorded without its terms (opened before Ferry recorded them) grants the plan as it is at the notify, once', async () => {
			const alice = await harness.ferry.createUser('alice')
			const plan = (await harness.ferry.call('POST', '/api/plan/', { as: harness.root, body: { ...PLAN, price: 2 * 500_000 } })).body.data
			const order = await orderPlan(alice, plan.id)
			const { topUps } = harness.ferry.store.tables
			await harness.ferry.store.db.update(topUps).set({ planTerms: null }).where(eq(topUps.tradeNo, order.fields.out_trade_no!))
			await editPlan({ ...EDITED, id: plan.id })

			for (let notify = 0; notify < 3; notify++) expect((await epay.notify(order)).text).toBe('success')
			const subscriptions = (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: alice })).body.data
			expect(subscriptions).toHaveLength(1)
			expect(subscriptions[0]).toMatchObject({ name: 'Edited', price: 9 * 500_000, models: ['other-model'], group: 'vip', windows: [{ seconds: HOUR, quota: CALL }] })
			expect(subscriptions[0].expires_at - subscriptions[0].starts_at).toBe(WEEK)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
