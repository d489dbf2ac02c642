/**
 * Per-key health through the relay, on real HTTP with the official SDK: a key the upstream calls
 * invalid is auto-disabled alone while the call moves to another key and succeeds; the recovery
 * round probes it with the model list and brings it back once it answers; a key disabled by hand
 * is never probed; a token's concurrency limit refuses the call past it in the caller's format; a
 * group's routing policy decides among channels.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { eq } from 'drizzle-orm'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { runRecoveryRound } from '@/api/channels/tools/recovery'
import { databaseTargets } from '../helpers/database'
import { type FakeKeyPool, startFakeKeyPool } from '../helpers/fake-key-pool'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'pool-gpt'
const KEYS = ['sk-health-0', 'sk-health-1', 'sk-health-2']

for (const target of databaseTargets()) {
	describe(`per-key health through the relay on ${target.dialect}`, () => {
		let harness: RelayHarness
		let pool: FakeKeyPool
		let channelId: number
		let key: string
		beforeAll(async () => {
			harness = await startRelayHarness(target)
			pool = startFakeKeyPool()
			const { options } = harness.ferry.dependencies
			await options.set('ModelRatio', JSON.stringify({ [MODEL]: 1, 'slow-model': 1, 'policy-model': 1 }))
			await options.set('AutomaticDisableChannelEnabled', 'true')
			channelId = await harness.createChannel({ type: 1, name: 'health pool', mode: 'multi_key', multi_key_mode: 'polling', key: KEYS.join('\n'), base_url: pool.url, models: MODEL })
			key = (await harness.createToken({ unlimited_quota: true })).key
		})
		afterAll(async () => {
			pool.stop()
			await harness.close()
		})

		const keyStatuses = async () => {
			const { channelKeys } = harness.ferry.store.tables
			const rows = await harness.ferry.store.db.select().from(channelKeys).where(eq(channelKeys.channelId, channelId))
			return Object.fromEntries(rows.map((row) => [row.position, row.status]))
		}

		test('a key the upstream calls invalid is disabled alone, and the call moves to another key without the client seeing it', async () => {
			pool.reject(KEYS[1]!, true)
			const client = harness.client(key)
			const answers = await Promise.all(Array.from({ length: 6 }, () => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] })))
			expect(answers.every((answer) => answer.choices[0]!.message.content!.length > 0)).toBe(true)
			expect(await keyStatuses()).toEqual({ 0: CHANNEL_STATUS.enabled, 1: CHANNEL_STATUS.autoDisabled, 2: CHANNEL_STATUS.enabled })
			const { channels } = harness.ferry.store.tables
			const [channel] = await harness.ferry.store.db.select().from(channels).where(eq(channels.id, channelId))
			expect(channel!.status).toBe(CHANNEL_STATUS.enabled)
			// Once out, the key gets no more calls.
			const since = pool.calls.length
			await Promise.all(Array.from({ length: 6 }, () => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'again' }] })))
			expect(pool.calls.slice(since).filter((call) => call.key === KEYS[1])).toEqual([])
		})

		test('the recovery round brings an auto-disabled key back once its model list answers, and leaves a key disabled by hand alone', async () => {
			const admin = { as: harness.root }
			expect((await harness.ferry.call('PUT', `/api/channel/${channelId}/keys/2`, { ...admin, body: { status: CHANNEL_STATUS.manuallyDisabled } })).body.success).toBe(true)
			expect((await runRecoveryRound(harness.ferry.dependencies)).recovered).toEqual([])
			pool.reject(KEYS[1]!, false)
			const completionsBefore = pool.calls.length
			const summary = await runRecoveryRound(harness.ferry.dependencies)
			expect(summary.recovered).toEqual([`${channelId}:1`])
			expect(await keyStatuses()).toEqual({ 0: CHANNEL_STATUS.enabled, 1: CHANNEL_STATUS.enabled, 2: CHANNEL_STATUS.manuallyDisabled })
			// No completion was spent on the probes: the model list was enough.
			expect(pool.calls.length).toBe(completionsBefore)
		})

		test('a key the upstream refuses with 403 is disabled alone too, with the reason in the admin\'s language', async () => {
			const forbiddenChannel = await harness.createChannel({ type: 1, name: 'forbidden pool', mode: 'multi_key', multi_key_mode: 'polling', key: 'sk-forbid-0\nsk-forbid-1', base_url: pool.url, models: 'forbid-model' })
			await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ [MODEL]: 1, 'slow-model': 1, 'policy-model': 1, 'forbid-model': 1 }))
			pool.forbid('sk-forbid-0', true)
			const client = harness.client(key)
			for (let call = 0; call < 4; call++) await client.chat.completions.create({ model: 'forbid-model', messages: [{ role: 'user', content: 'hi' }] })
			const detail = await harness.ferry.call('GET', `/api/channel/${forbiddenChannel}`, { as: harness.root, headers: { 'accept-language': 'en' } })
			const [first, second] = detail.body.data.keys
			expect(first).toMatchObject({ index: 0, status: CHANNEL_STATUS.autoDisabled, status_reason: expect.stringContaining('upstream answered 403') })
			expect(second).toMatchObject({ index: 1, status: CHANNEL_STATUS.enabled })
		})

		test('a token over its concurrency limit is refused with a 429 in the caller\'s format, and served again once a call ends', async () => {
			const slow = harness.startUpstream({ fault: { name: 'slow-chunks', delayMs: 300 } })
			await harness.createChannel({ type: 1, name: 'slow', base_url: slow.url, models: 'slow-model' })
			const limited = (await harness.createToken({ unlimited_quota: true, concurrency_limit: 1 })).key
			const stream = await harness.client(limited).chat.completions.create({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'take your time' }] })
			const refused = await fetch(`${harness.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${limited}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'slow-model', messages: [{ role: 'user', content: 'me too' }] }) })
			expect(refused.status).toBe(429)
			expect(await refused.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'concurrency_limit_exceeded' } })
			const claude = await new Anthropic({ apiKey: limited, baseURL: harness.baseUrl, maxRetries: 0 }).messages.create({ model: 'slow-model', max_tokens: 8, messages: [{ role: 'user', content: 'and me' }] }).catch((error) => error)
			expect(claude).toBeInstanceOf(Anthropic.RateLimitError)
			for await (const _chunk of stream) { /* read to the end */ }
			const after = await harness.client(limited).chat.completions.create({ model: 'slow-model', messages: [{ role: 'user', content: 'now' }] })
			expect(after.choices[0]!.message.content).toBeTruthy()
		})

		test('a group whose policy is priority always takes the first channel of its top level, whatever the weights', async () => {
			const first = harness.startUpstream({ name: 'first' })
			const second = harness.startUpstream({ name: 'second' })
			await harness.createChannel({ type: 1, name: 'first', base_url: first.url, models: 'policy-model', priority: 5, weight: 1 })
			await harness.createChannel({ type: 1, name: 'second', base_url: second.url, models: 'policy-model', priority: 5, weight: 1000 })
			await harness.ferry.dependencies.options.set('GroupRoutingPolicy', JSON.stringify({ default: 'priority' }))
			const client = harness.client(key)
			const answers = await Promise.all(Array.from({ length: 8 }, () => client.chat.completions.create({ model: 'policy-model', messages: [{ role: 'user', content: 'who' }] })))
			expect(new Set(answers.map((answer) => answer.choices[0]!.message.content))).toEqual(new Set(['Hello from first']))
			await harness.ferry.dependencies.options.set('GroupRoutingPolicy', JSON.stringify({ default: 'round_robin' }))
			const turns = await Promise.all(Array.from({ length: 4 }, () => client.chat.completions.create({ model: 'policy-model', messages: [{ role: 'user', content: 'who' }] })))
			expect(new Set(turns.map((answer) => answer.choices[0]!.message.content))).toEqual(new Set(['Hello from first', 'Hello from second']))
			await harness.ferry.dependencies.options.set('GroupRoutingPolicy', '{}')
		})
	})
}
