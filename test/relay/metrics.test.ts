/**
 * `/metrics` (issue 17): relay calls move the Prometheus series — calls by endpoint, model, channel
 * and outcome, tokens, quota, latency, first token, calls in flight, upstream errors — and the
 * series read on scrape (channel status, pending holds, memory) are there. Who may scrape: a direct
 * loopback request without METRICS_TOKEN, the bearer with it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { createTestApp, testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'gpt-4o-mini'
const PROMPT_TOKENS = 40
const COMPLETION_TOKENS = 7

/** The value of one series (exact label set, any order), or undefined when it is not exposed. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
	const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`).sort().join(',')
	for (const line of text.split('\n')) {
		const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
		if (!match || match[1] !== name) continue
		const found = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/).filter(Boolean).sort().join(',')
		if (found === wanted) return Number(match[3])
	}
	return undefined
}

describe('/metrics', () => {
	let harness: RelayHarness
	let upstream: FakeOpenAI
	let channelId: number
	let client: OpenAI

	const scrape = async (headers: Record<string, string> = {}) => {
		const response = await fetch(`${harness.baseUrl}/metrics`, { headers })
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
		return await response.text()
	}

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		upstream = harness.startUpstream({ name: 'metered', promptTokens: PROMPT_TOKENS, completionTokens: COMPLETION_TOKENS, chunkDelayMs: 20 })
		channelId = await harness.createChannel({ name: 'metered-channel', base_url: upstream.url, models: MODEL })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(() => harness.close())

	test('a whole answer counts one successful call of its endpoint, model and channel, with its tokens, quota and time', async () => {
		const chat = { endpoint: 'chat', model: MODEL, channel: String(channelId) }
		const before = await scrape()
		expect(sample(before, 'ferry_relay_calls_total', { ...chat, outcome: 'success' })).toBeUndefined()

		await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
		const after = await scrape()
		expect(sample(after, 'ferry_relay_calls_total', { ...chat, outcome: 'success' })).toBe(1)
		expect(sample(after, 'ferry_relay_prompt_tokens_total', chat)).toBe(PROMPT_TOKENS)
		expect(sample(after, 'ferry_relay_completion_tokens_total', chat)).toBe(COMPLETION_TOKENS)
		const [log] = await harness.ferry.store.read<{ quota: number }>('SELECT quota FROM logs WHERE type = 2 ORDER BY id DESC LIMIT 1')
		expect(log!.quota).toBeGreaterThan(0)
		expect(sample(after, 'ferry_relay_quota_charged_total', chat)).toBe(Number(log!.quota))
		expect(sample(after, 'ferry_relay_call_duration_seconds_count', { endpoint: 'chat', model: MODEL })).toBe(1)
		expect(sample(after, 'ferry_relay_call_duration_seconds_bucket', { endpoint: 'chat', model: MODEL, le: '+Inf' })).toBe(1)
		expect(sample(after, 'ferry_relay_calls_in_flight')).toBe(0)
	})

	test('a stream is in flight until it ends, and records its first token', async () => {
		const labels = { endpoint: 'chat', model: MODEL }
		const firstTokensBefore = sample(await scrape(), 'ferry_relay_first_token_seconds_count', labels) ?? 0
		const stream = await client.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Hi [fake-fault:slow-chunks=200]' }] })
		const chunks = stream[Symbol.asyncIterator]()
		await chunks.next()
		expect(sample(await scrape(), 'ferry_relay_calls_in_flight')).toBe(1)
		while (!(await chunks.next()).done) {}
		const after = await scrape()
		expect(sample(after, 'ferry_relay_calls_in_flight')).toBe(0)
		expect(sample(after, 'ferry_relay_first_token_seconds_count', labels)).toBe(firstTokensBefore + 1)
		expect(sample(after, 'ferry_relay_first_token_seconds_sum', labels)).toBeGreaterThan(0)
	})

	test('an upstream error is counted for its channel and status, and the call as an error', async () => {
		const errors = { channel: String(channelId), status: '500' }
		const failed = { endpoint: 'chat', model: MODEL, channel: '', outcome: 'error' }
		const before = await scrape()
		const failure = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi [fake-fault:status=500]' }] }).catch((error) => error)
		expect(failure).toBeInstanceOf(OpenAI.InternalServerError)
		const after = await scrape()
		expect(sample(after, 'ferry_upstream_errors_total', errors)).toBe((sample(before, 'ferry_upstream_errors_total', errors) ?? 0) + 1)
		expect(sample(after, 'ferry_relay_calls_total', failed)).toBe((sample(before, 'ferry_relay_calls_total', failed) ?? 0) + 1)
	})

	test('a model name no channel serves is counted as "other", so clients cannot add series', async () => {
		const invented = 'made-up-model-4242'
		const failure = await client.chat.completions.create({ model: invented, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(failure.status).toBe(404)
		const text = await scrape()
		expect(text).not.toContain(invented)
		expect(sample(text, 'ferry_relay_calls_total', { endpoint: 'chat', model: 'other', channel: '', outcome: 'client_error' })).toBe(1)
	})

	test('a refused key counts as a client error', async () => {
		const refused = { endpoint: '', model: '', channel: '', outcome: 'client_error' }
		const before = sample(await scrape(), 'ferry_relay_calls_total', refused) ?? 0
		await harness.client('sk-not-a-token').chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch(() => {})
		expect(sample(await scrape(), 'ferry_relay_calls_total', refused)).toBe(before + 1)
	})

	test('channel status, pending ledger holds and process memory are read when scraped', async () => {
		const text = await scrape()
		expect(sample(text, 'ferry_channel_status', { channel: String(channelId), name: 'metered-channel' })).toBe(1)
		expect(sample(text, 'ferry_ledger_holds_pending')).toBe(0)
		expect(sample(text, 'ferry_process_resident_memory_bytes')).toBeGreaterThan(0)
		expect(sample(text, 'ferry_process_heap_used_bytes')).toBeGreaterThan(0)
		await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: channelId, status: 2 } })
		expect(sample(await scrape(), 'ferry_channel_status', { channel: String(channelId), name: 'metered-channel' })).toBe(2)
		await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: channelId, status: 1 } })
	})

	test('without METRICS_TOKEN, a request that came through a proxy is refused', async () => {
		for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
			const response = await fetch(`${harness.baseUrl}/metrics`, { headers: { [header]: '203.0.113.9' } })
			expect(response.status).toBe(403)
			expect(await response.text()).toContain('METRICS_TOKEN')
		}
	})
})

describe('/metrics with METRICS_TOKEN', () => {
	test('answers only a request bearing the token, from anywhere', async () => {
		const ferry = await createTestApp(databaseTargets()[0]!, { config: { ...testConfig, metricsToken: 'scrape-secret-1234' } })
		try {
			const scrape = (headers: Record<string, string>) => ferry.app.handle(new Request('http://localhost/metrics', { headers }))
			expect((await scrape({})).status).toBe(401)
			expect((await scrape({ authorization: 'Bearer wrong-secret' })).status).toBe(401)
			const allowed = await scrape({ authorization: 'Bearer scrape-secret-1234', 'x-forwarded-for': '203.0.113.9' })
			expect(allowed.status).toBe(200)
			expect(await allowed.text()).toContain('# TYPE ferry_relay_calls_total counter')
		} finally {
			await ferry.close()
		}
	})
})
