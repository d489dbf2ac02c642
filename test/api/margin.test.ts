/**
 * The cost side and the margin report (issue 28 item 5): a channel's `cost_ratio` (a multiple of
 * the model's list price before group ratios) or per-model cost prices (`model_cost`) give every
 * consume log row and task a `cost` beside its `quota`; a channel whose cost is unknown records
 * none. `GET /api/data/margin` sums revenue (wallet charges and plan sales), cost and margin per
 * channel, model, user and day. Negative cost fields are refused in the console's language. On
 * SQLite and Postgres.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { and, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { renderMessage } from '@shared/messages'
import { CHANNEL_MESSAGES } from '@shared/channel'
import { auditLedger } from '@/billing/audit'
import { nowSeconds } from '@/lib/clock'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { PRICE, startTaskHarness } from '../helpers/task-relay'

const DAY = 24 * 3600

for (const target of databaseTargets()) {
	describe(`cost and margin on ${target.dialect}`, () => {
		let harness: RelayHarness
		let alice: Caller
		let client: OpenAI
		let halfPrice: number
		let priced: number
		let unknown: number

		beforeEach(async () => {
			harness = await startRelayHarness(target)
			const upstream = harness.startUpstream({ promptTokens: 1000, completionTokens: 500 })
			const { options } = harness.ferry.dependencies
			// Ratio 1, completion ratio 2: 1 000 + 500 × 2 = 2 000 quota a call at list price; the vip group pays double.
			await options.set('ModelRatio', JSON.stringify({ 'half-model': 1, 'priced-model': 1, 'unknown-model': 1 }))
			await options.set('CompletionRatio', JSON.stringify({ 'half-model': 2, 'priced-model': 2, 'unknown-model': 2 }))
			await options.set('GroupRatio', JSON.stringify({ default: 1, vip: 2 }))
			halfPrice = await harness.createChannel({ name: 'half', base_url: upstream.url, models: 'half-model', group: 'default,vip', cost_ratio: 0.5 })
			// $1 per million input and $2 per million output: 0.001 + 0.001 = $0.002 = 1 000 quota a call.
			priced = await harness.createChannel({ name: 'priced', base_url: upstream.url, models: 'priced-model', group: 'default,vip', model_cost: JSON.stringify({ 'priced-model': { input: 1, output: 2 } }) })
			unknown = await harness.createChannel({ name: 'unknown', base_url: upstream.url, models: 'unknown-model', group: 'default,vip' })
			alice = await harness.ferry.createUser('alice')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 100_000, group: 'vip' } })
			client = harness.client((await harness.createToken({ name: 'alice' }, alice)).key)
		})
		afterEach(() => harness.close())

		const chat = (model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })
		const margin = async (groupBy: string) => {
			const answer = await harness.ferry.call('GET', `/api/data/margin?group_by=${groupBy}&start_timestamp=${nowSeconds() - DAY}&end_timestamp=${nowSeconds() + 60}`, { as: harness.root })
			expect(answer.body.success).toBe(true)
			return answer.body.data as { key: string; name: string; revenue: number; cost: number; margin: number; calls: number; plan_quota: number; uncosted_calls: number }[]
		}

		test('a channel with cost_ratio 0.5 logs a cost of half the list price, before the group ratio', async () => {
			await chat('half-model')
			const { logs } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(logs).where(and(eq(logs.userId, alice.userId), eq(logs.type, LOG_TYPE.consume)))
			// Sold at 2 000 × 2 (vip) = 4 000; list price 2 000, cost half of it.
			expect(row).toMatchObject({ quota: 4_000, cost: 1_000, channelId: halfPrice })
			const listed = await harness.ferry.call('GET', '/api/log/?type=2', { as: harness.root })
			expect(listed.body.data.items[0]).toMatchObject({ quota: 4_000, cost: 1_000 })
			// Users never see what the operator pays.
			const own = await harness.ferry.call('GET', '/api/log/self?type=2', { as: alice })
			expect(own.body.data.items[0].cost).toBeUndefined()
		})

		test('the margin report sums revenue, cost and margin per channel, model, user and day', async () => {
			for (const model of ['half-model', 'half-model', 'priced-model', 'unknown-model']) await chat(model)
			// A plan sold for 3 000: revenue of its buyer and day, and of no channel or model.
			const plan = (await harness.ferry.call('POST', '/api/plan/', { as: harness.root, body: { name: 'p', price: 3_000, duration_seconds: DAY, windows: [{ seconds: DAY, quota: 4_000 }] } })).body.data
			expect((await harness.ferry.call('POST', `/api/plan/${plan.id}/purchase`, { as: alice })).body.success).toBe(true)
			// Paid by the plan: no revenue of its own, its list-price value in plan_quota.
			await chat('priced-model')

			const byChannel = await margin('channel')
			expect(byChannel).toEqual(expect.arrayContaining([
				{ key: String(halfPrice), name: 'half', revenue: 8_000, cost: 2_000, margin: 6_000, calls: 2, plan_quota: 0, uncosted_calls: 0 },
				{ key: String(priced), name: 'priced', revenue: 4_000, cost: 2_000, margin: 2_000, calls: 2, plan_quota: 4_000, uncosted_calls: 0 },
				{ key: String(unknown), name: 'unknown', revenue: 4_000, cost: 0, margin: 4_000, calls: 1, plan_quota: 0, uncosted_calls: 1 },
				{ key: 'plans', name: '', revenue: 3_000, cost: 0, margin: 3_000, calls: 0, plan_quota: 0, uncosted_calls: 0 },
			]))
			expect(byChannel).toHaveLength(4)
			const byModel = await margin('model')
			expect(byModel.find((row) => row.key === 'half-model')).toMatchObject({ revenue: 8_000, cost: 2_000, margin: 6_000, calls: 2 })
			expect(byModel.find((row) => row.key === 'plans')).toMatchObject({ revenue: 3_000 })
			const byUser = await margin('user')
			expect(byUser).toEqual([{ key: String(alice.userId), name: 'alice', revenue: 16_000 + 3_000, cost: 4_000, margin: 15_000, calls: 5, plan_quota: 4_000, uncosted_calls: 1 }])
			const byDay = await margin('day')
			const today = nowSeconds() - (nowSeconds() % DAY)
			expect(byDay).toEqual([{ key: String(today), name: '', revenue: 19_000, cost: 4_000, margin: 15_000, calls: 5, plan_quota: 4_000, uncosted_calls: 1 }])
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('only admins read the margin report, and a bad range or grouping is refused', async () => {
			expect((await harness.ferry.call('GET', '/api/data/margin', { as: alice })).status).toBe(403)
			expect((await harness.ferry.call('GET', '/api/data/margin?group_by=planet', { as: harness.root })).status).toBe(400)
			expect((await harness.ferry.call('GET', '/api/data/margin?start_timestamp=10&end_timestamp=5', { as: harness.root })).status).toBe(400)
		})

		test('cost fields refuse negatives, in the console\'s language, and an empty cost ratio makes the cost unknown again', async () => {
			const zh = { 'accept-language': 'zh-CN' }
			const negative = await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, headers: zh, body: { id: halfPrice, cost_ratio: -1 } })
			expect(negative.body.message).toContain(renderMessage('zh', CHANNEL_MESSAGES.costRatioInvalid))
			const badPrices = await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, headers: zh, body: { id: priced, model_cost: '{"priced-model": {"input": -2}}' } })
			expect(badPrices.body.message).toContain(renderMessage('zh', CHANNEL_MESSAGES.modelCostInvalid))
			expect((await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: halfPrice, cost_ratio: '' } })).body.data.cost_ratio).toBeNull()
			await chat('half-model')
			const { logs } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(logs).where(and(eq(logs.userId, alice.userId), eq(logs.type, LOG_TYPE.consume)))
			expect(row!.cost).toBeNull()
		})
	})

	describe(`tasks' cost and funding on ${target.dialect}`, () => {
		test('a task records its cost beside its charge, and a plan covering the task\'s model pays for it', async () => {
			const tasks = await startTaskHarness(target)
			try {
				const { ferry, root } = tasks.harness
				await ferry.call('PUT', '/api/channel/', { as: root, body: { id: tasks.mjChannelId, cost_ratio: 0.4 } })
				const plan = (await ferry.call('POST', '/api/plan/', { as: root, body: { name: 'draw', price: 0, duration_seconds: DAY, windows: [{ seconds: DAY, quota: PRICE.mj_imagine }], models: ['mj_imagine'] } })).body.data
				expect((await ferry.call('POST', `/api/plan/${plan.id}/purchase`, { as: tasks.alice })).body.success).toBe(true)
				const before = await tasks.account(tasks.alice)
				const drawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'a plan pays' } })).body.result
				tasks.midjourney.report(drawing, 'task-success.json')
				await tasks.poll()
				const { midjourneys, logs, subscriptions } = ferry.store.tables
				const [row] = await ferry.store.db.select().from(midjourneys).where(eq(midjourneys.mjId, drawing))
				expect(row).toMatchObject({ quota: PRICE.mj_imagine, cost: PRICE.mj_imagine * 0.4 })
				const [line] = await ferry.store.db.select().from(logs).where(and(eq(logs.userId, tasks.alice.userId), eq(logs.type, LOG_TYPE.consume)))
				const [subscription] = await ferry.store.db.select().from(subscriptions).where(eq(subscriptions.userId, tasks.alice.userId))
				expect(line).toMatchObject({ quota: PRICE.mj_imagine, cost: PRICE.mj_imagine * 0.4, subscriptionId: subscription!.id })
				// The wallet paid nothing; the token's limit still counts the task.
				const after = await tasks.account(tasks.alice)
				expect(after.quota).toBe(before.quota)
				expect(after.remain).toBe(before.remain - PRICE.mj_imagine)
				// The window is spent: the next drawing is the wallet's.
				await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'the wallet pays' } })
				expect((await tasks.account(tasks.alice)).quota).toBe(before.quota - PRICE.mj_imagine)
				expect(await auditLedger(ferry.store)).toEqual([])
			} finally {
				await tasks.close()
			}
		})
	})
}
