import { afterEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const chat = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })

describe('routing a call', () => {
	let harness: RelayHarness
	afterEach(() => harness.close())
	const lastConsumeLog = async () => {
		const { logs } = harness.ferry.store.tables
		return (await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume)).orderBy(logs.id)).at(-1)!
	}

	test('a status code mapping changes what the retry decision sees', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('RetryTimes', '1')
		await harness.createChannel({ name: 'mapped', base_url: harness.startUpstream({ fault: 'status=400' }).url, models: 'gpt-4o-mini', priority: 10, status_code_mapping: '{"400":"503"}' })
		await harness.createChannel({ name: 'good', base_url: harness.startUpstream({ name: 'good' }).url, models: 'gpt-4o-mini' })
		expect((await chat(harness.client((await harness.createToken()).key))).choices[0]!.message.content).toBe('Hello from good')
	})

	test('a top-priority channel that maps the model to itself serves it as if it had no mapping', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		const selfMapped = harness.startUpstream({ name: 'self-mapped' })
		await harness.createChannel({ name: 'self-mapped', base_url: selfMapped.url, models: 'gpt-4o-mini', priority: 10, model_mapping: '{"gpt-4o-mini": "gpt-4o-mini"}' })
		await harness.createChannel({ name: 'lower', base_url: harness.startUpstream({ name: 'lower' }).url, models: 'gpt-4o-mini' })
		expect((await chat(harness.client((await harness.createToken()).key))).choices[0]!.message.content).toBe('Hello from self-mapped')
		expect(selfMapped.requests.at(-1)!.body.model).toBe('gpt-4o-mini')
	})

	test('a channel whose model mapping loops is skipped without using up a retry, and the call is billed once on the channel that served it', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('RetryTimes', '1')
		const looping = harness.startUpstream({ name: 'looping' })
		const loopingId = await harness.createChannel({ name: 'looping', base_url: looping.url, models: 'gpt-4o-mini', priority: 20 })
		const failingId = await harness.createChannel({ name: 'failing', base_url: harness.startUpstream({ fault: 'status=500' }).url, models: 'gpt-4o-mini', priority: 10 })
		const goodId = await harness.createChannel({ name: 'good', base_url: harness.startUpstream({ name: 'good' }).url, models: 'gpt-4o-mini' })
		// Saved before cycles were refused (the API refuses them now): written to the database directly.
		const { channels } = harness.ferry.store.tables
		await harness.ferry.store.db.update(channels).set({ modelMapping: '{"gpt-4o-mini": "gpt-4o", "gpt-4o": "gpt-4o-mini"}' }).where(eq(channels.id, loopingId))
		harness.ferry.dependencies.changes.notify('channels')

		expect((await chat(harness.client((await harness.createToken()).key))).choices[0]!.message.content).toBe('Hello from good')
		expect(looping.requests).toEqual([])
		const log = await lastConsumeLog()
		expect(log.channelId).toBe(goodId)
		expect(JSON.parse(log.other).admin_info.use_channel).toEqual([failingId, goodId])
	})

	test('an auto token uses the first of AutoGroups that serves the model, and bills in that group', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('AutoGroups', '["vip","default"]')
		await harness.ferry.dependencies.options.set('GroupRatio', '{"default":1,"vip":2,"svip":1}')
		await harness.createChannel({ base_url: harness.startUpstream({ promptTokens: 1000, completionTokens: 200 }).url, models: 'gpt-4o-mini', group: 'vip' })
		const client = harness.client((await harness.createToken({ group: 'auto' })).key)
		await chat(client)
		const log = await lastConsumeLog()
		expect(log.group).toBe('vip')
		expect(log.quota).toBe(270)
	})

	test('a served call records the channel\'s response time', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		const id = await harness.createChannel({ base_url: harness.startUpstream({ fault: 'slow-first-byte=50' }).url, models: 'gpt-4o-mini' })
		await chat(harness.client((await harness.createToken()).key))
		const { channels } = harness.ferry.store.tables
		const deadline = Date.now() + 2_000
		let row = (await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id)))[0]!
		while (row.responseTime === 0 && Date.now() < deadline) {
			await Bun.sleep(20)
			row = (await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id)))[0]!
		}
		expect(row.responseTime).toBeGreaterThanOrEqual(50)
	})

	test('an admin pins a channel with sk-KEY-CHANNELID, even one of lower priority', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.createChannel({ name: 'first', base_url: harness.startUpstream({ name: 'first' }).url, models: 'gpt-4o-mini', priority: 10 })
		const second = await harness.createChannel({ name: 'second', base_url: harness.startUpstream({ name: 'second' }).url, models: 'gpt-4o-mini', priority: 0 })
		const { key } = await harness.createToken()
		expect((await chat(harness.client(`${key}-${second}`))).choices[0]!.message.content).toBe('Hello from second')
		expect((await chat(harness.client(key))).choices[0]!.message.content).toBe('Hello from first')
	})

	test('least_cost sends calls to the channel that costs least for the model, and fails over to the next cheapest', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('GroupRoutingPolicy', JSON.stringify({ default: 'least_cost' }))
		await harness.ferry.dependencies.options.set('RetryTimes', '1')
		// A weight that weighted routing would follow, on a channel at full list price.
		await harness.createChannel({ name: 'dear', base_url: harness.startUpstream({ name: 'dear' }).url, models: 'gpt-4o-mini', weight: 1000, cost_ratio: 1 })
		await harness.createChannel({ name: 'unknown', base_url: harness.startUpstream({ name: 'unknown' }).url, models: 'gpt-4o-mini', weight: 1000 })
		const cheap = harness.startUpstream({ name: 'cheap' })
		const cheapId = await harness.createChannel({ name: 'cheap', base_url: cheap.url, models: 'gpt-4o-mini', weight: 1, model_cost: JSON.stringify({ 'gpt-4o-mini': { input: 0.01, output: 0.02 } }) })
		const client = harness.client((await harness.createToken()).key)
		const replies = []
		for (let call = 0; call < 5; call++) replies.push((await chat(client)).choices[0]!.message.content)
		expect(replies).toEqual(Array(5).fill('Hello from cheap'))
		expect((await lastConsumeLog()).channelId).toBe(cheapId)

		cheap.setMode('status=503')
		expect((await chat(client)).choices[0]!.message.content).toBe('Hello from dear')
	})

	test('an upstream slower than the first-byte limit is left for another channel', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!, { config: { ...testConfig, upstreamTimeouts: { connectMs: 2_000, firstByteMs: 300, idleMs: 2_000, firstTokenMs: 0 } } })
		await harness.ferry.dependencies.options.set('RetryTimes', '1')
		await harness.createChannel({ name: 'slow', base_url: harness.startUpstream({ fault: 'slow-first-byte=3000' }).url, models: 'gpt-4o-mini', priority: 10 })
		await harness.createChannel({ name: 'quick', base_url: harness.startUpstream({ name: 'quick' }).url, models: 'gpt-4o-mini' })
		// The slow one would answer (as itself) after 3 s: the quick one's answer means the limit left it.
		expect((await chat(harness.client((await harness.createToken()).key))).choices[0]!.message.content).toBe('Hello from quick')
	})

	test('a stream that stalls longer than the idle limit ends with an error event', async () => {
		harness = await startRelayHarness(databaseTargets()[0]!, { config: { ...testConfig, upstreamTimeouts: { connectMs: 2_000, firstByteMs: 2_000, idleMs: 300, firstTokenMs: 0 } } })
		await harness.createChannel({ base_url: harness.startUpstream({ fault: 'slow-chunks=1500' }).url, models: 'gpt-4o-mini' })
		const { key } = await harness.createToken()
		const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
			method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
		})
		expect(await response.text()).toContain('"code":"upstream_reset"')
	})
})
