/**
 * The response cache (stages/response-cache.ts), driven by the official openai and Anthropic SDKs:
 * with `ResponseCacheSeconds` on, an identical call of the same user is answered from the cache —
 * whole or as a replay of its stream — without reaching the upstream, marked `x-ferry-cache: hit`,
 * billed at `ResponseCacheRatio` × the original charge on a log line of its own type; never across
 * users, never for `Cache-Control: no-cache` or a token that opted out, never an error or a tool call,
 * never past `ResponseCacheMaxBytes`; in Redis when it is configured. The ledger audit runs on every
 * store these tests used.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { uniquePrefix } from '../helpers/redis'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { redisUrl } from '../helpers/services'

const MODEL = 'gpt-4o-mini'
const TOOL_MODEL = 'gpt-4o'
const PROMPT_TOKENS = 1000
const COMPLETION_TOKENS = 200
/** ModelRatio 1, CompletionRatio 2: 1000 + 200 × 2. */
const ORIGINAL_QUOTA = PROMPT_TOKENS + COMPLETION_TOKENS * 2

let prompts = 0
/** A prompt no other test sent: each test starts with an empty cache for its calls. */
const freshPrompt = () => `Tell me about the sea, take ${++prompts}.`

async function cacheHarness(target: Parameters<typeof startRelayHarness>[0], redis?: string) {
	const harness = await startRelayHarness(target, redis ? { config: { ...testConfig, redisUrl: redis, redisKeyPrefix: uniquePrefix('rcache') } } : {})
	const upstream = harness.startUpstream({ promptTokens: PROMPT_TOKENS, completionTokens: COMPLETION_TOKENS })
	const tools = harness.startUpstream({ promptTokens: PROMPT_TOKENS, completionTokens: COMPLETION_TOKENS, toolCalls: true })
	const options = harness.ferry.dependencies.options
	await options.set('ModelRatio', JSON.stringify({ [MODEL]: 1, [TOOL_MODEL]: 1 }))
	await options.set('CompletionRatio', JSON.stringify({ [MODEL]: 2, [TOOL_MODEL]: 2 }))
	await options.set('ResponseCacheSeconds', '60')
	const channelId = await harness.createChannel({ base_url: upstream.url, models: MODEL })
	await harness.createChannel({ base_url: tools.url, models: TOOL_MODEL })
	return { harness, upstream, tools, channelId }
}

for (const target of databaseTargets()) {
	describe(`the response cache on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let tools: FakeOpenAI
		let channelId: number
		let client: OpenAI
		let key: string

		beforeAll(async () => {
			;({ harness, upstream, tools, channelId } = await cacheHarness(target))
			key = (await harness.createToken()).key
			client = harness.client(key)
		})
		afterAll(() => harness.close())
		beforeEach(async () => {
			const options = harness.ferry.dependencies.options
			await options.set('ResponseCacheSeconds', '60')
			await options.set('ResponseCacheRatio', '0')
			await options.set('ResponseCacheMaxBytes', String(64 * 1024 * 1024))
		})

		const ask = (prompt: string, openai = client, headers: Record<string, string> = {}) =>
			openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: prompt }] }, { headers }).withResponse()
		const logs = async () => (await harness.ferry.call('GET', '/api/log/?page_size=5', { as: harness.root })).body.data.items as Record<string, any>[]

		test('two identical calls reach the upstream once: the second is answered from the cache, x-ferry-cache: hit, with the same content', async () => {
			const prompt = freshPrompt()
			const before = upstream.requests.length
			const first = await ask(prompt)
			expect(first.response.headers.get('x-ferry-cache')).toBe('miss')
			const second = await ask(prompt)
			expect(second.response.headers.get('x-ferry-cache')).toBe('hit')
			expect(second.data).toEqual(first.data)
			expect(upstream.requests.length - before).toBe(1)
		})

		test('a hit is billed ResponseCacheRatio × the original charge, on a log line of its own type (free by default)', async () => {
			const prompt = freshPrompt()
			await ask(prompt)
			const [original] = await logs()
			expect(original).toMatchObject({ type: LOG_TYPE.consume, quota: ORIGINAL_QUOTA, prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS })
			await ask(prompt)
			const [free] = await logs()
			expect(free).toMatchObject({ type: LOG_TYPE.cacheHit, quota: 0, model_name: MODEL, prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS })
			expect(free!.other.response_cache).toMatchObject({ ratio: 0, original_quota: ORIGINAL_QUOTA })
			await harness.ferry.dependencies.options.set('ResponseCacheRatio', '0.25')
			const balance = async () => (await harness.ferry.call('GET', '/api/user/self', { as: harness.root })).body.data.quota as number
			const before = await balance()
			await ask(prompt)
			const [charged] = await logs()
			expect(charged).toMatchObject({ type: LOG_TYPE.cacheHit, quota: ORIGINAL_QUOTA / 4 })
			expect(before - await balance()).toBe(ORIGINAL_QUOTA / 4)
			// The type filter of the log list finds them.
			const filtered = await harness.ferry.call('GET', `/api/log/?type=${LOG_TYPE.cacheHit}&page_size=50`, { as: harness.root })
			expect((filtered.body.data.items as Record<string, any>[]).every((entry) => entry.type === LOG_TYPE.cacheHit)).toBe(true)
		})

		test('another user\'s identical call is not served from the cache', async () => {
			const prompt = freshPrompt()
			await ask(prompt)
			const other = await harness.ferry.createUser("cache-other")
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: other.userId, quota: 10_000_000 } })
			const otherClient = harness.client((await harness.createToken({}, other)).key)
			const before = upstream.requests.length
			const answer = await ask(prompt, otherClient)
			expect(answer.response.headers.get('x-ferry-cache')).toBe('miss')
			expect(upstream.requests.length - before).toBe(1)
		})

		test('a stream is replayed from the cache: the same events, the upstream asked once', async () => {
			const prompt = freshPrompt()
			const read = async () => {
				const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
					method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
					body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: prompt }] }),
				})
				return { cache: response.headers.get('x-ferry-cache'), text: await response.text() }
			}
			const before = upstream.requests.length
			const first = await read()
			const second = await read()
			expect(first.cache).toBe('miss')
			expect(second.cache).toBe('hit')
			expect(second.text).toBe(first.text)
			expect(second.text).toContain('data: [DONE]')
			expect(upstream.requests.length - before).toBe(1)
			const [replayed] = await logs()
			expect(replayed).toMatchObject({ type: LOG_TYPE.cacheHit, is_stream: true, quota: 0 })
		})

		test('a Claude-format client gets the cached answer in Claude\'s shape, whole and streamed', async () => {
			const claude = new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
			const prompt = freshPrompt()
			const before = upstream.requests.length
			const first = await claude.messages.create({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: prompt }] })
			const second = await claude.messages.create({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: prompt }] }).withResponse()
			expect(second.response.headers.get('x-ferry-cache')).toBe('hit')
			expect(second.data.content).toEqual(first.content)
			const streamed = await claude.messages.stream({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: prompt }] }).finalMessage()
			const replayed = await claude.messages.stream({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: prompt }] }).finalMessage()
			expect(replayed.content).toEqual(streamed.content)
			expect(upstream.requests.length - before).toBe(2)
		})

		test('Cache-Control: no-cache from the client goes upstream, and so does every call of a token that opted out', async () => {
			const prompt = freshPrompt()
			await ask(prompt)
			let before = upstream.requests.length
			const fresh = await ask(prompt, client, { 'cache-control': 'no-cache' })
			expect(fresh.response.headers.get('x-ferry-cache')).toBe('miss')
			expect(upstream.requests.length - before).toBe(1)
			const optedOut = harness.client((await harness.createToken({ response_cache_enabled: false })).key)
			before = upstream.requests.length
			await ask(prompt, optedOut)
			await ask(prompt, optedOut)
			expect(upstream.requests.length - before).toBe(2)
			// The token view says so, and an edit turns it back on.
			const tokens = await harness.ferry.call('GET', '/api/token/?p=0&size=100', { as: harness.root })
			expect((tokens.body.data.items as { response_cache_enabled: boolean }[]).some((token) => token.response_cache_enabled === false)).toBe(true)
		})

		test('an upstream error and an answer that calls a tool are not cached', async () => {
			const prompt = freshPrompt()
			upstream.setMode('status=500', 1)
			await expect(ask(prompt)).rejects.toMatchObject({ status: 500 })
			let before = upstream.requests.length
			const recovered = await ask(prompt)
			expect(recovered.response.headers.get('x-ferry-cache')).toBe('miss')
			expect(upstream.requests.length - before).toBe(1)
			const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }
			before = tools.requests.length
			for (let call = 0; call < 2; call++) {
				const answer = await client.chat.completions.create({ model: TOOL_MODEL, tools: [weather], messages: [{ role: 'user', content: prompt }] })
				expect(answer.choices[0]!.message.tool_calls).toHaveLength(1)
			}
			expect(tools.requests.length - before).toBe(2)
		})

		test('an entry stops serving once the channel maps the model to another upstream model', async () => {
			const prompt = freshPrompt()
			await ask(prompt)
			expect((await ask(prompt)).response.headers.get('x-ferry-cache')).toBe('hit')
			const channel = (await harness.ferry.call('GET', `/api/channel/${channelId}`, { as: harness.root })).body.data
			const mapped = await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { ...channel, key: undefined, model_mapping: JSON.stringify({ [MODEL]: 'gpt-4o-2024-11-20' }) } })
			expect(mapped.body.success).toBe(true)
			await harness.ferry.relay.routing.ready()
			const before = upstream.requests.length
			expect((await ask(prompt)).response.headers.get('x-ferry-cache')).toBe('miss')
			expect(upstream.requests.length - before).toBe(1)
			await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { ...channel, key: undefined, model_mapping: '' } })
		})

		/** Edits the channel through the management API, as an operator does, and waits for the routing table to read it. */
		const editChannel = async (fields: Record<string, unknown>) => {
			const channel = (await harness.ferry.call('GET', `/api/channel/${channelId}`, { as: harness.root })).body.data
			const edited = await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { ...channel, key: undefined, ...fields } })
			expect(edited.body.success).toBe(true)
			await harness.ferry.relay.routing.ready()
		}

		test('an entry stops serving once the channel\'s extra setting changes what its upstream is asked, and the new answer is kept', async () => {
			const prompt = freshPrompt()
			await ask(prompt)
			expect((await ask(prompt)).response.headers.get('x-ferry-cache')).toBe('hit')
			const systemPrompt = 'Answer as a ship\'s captain.'
			await editChannel({ setting: JSON.stringify({ system_prompt: systemPrompt }) })
			try {
				const before = upstream.requests.length
				const changed = await ask(prompt)
				expect(changed.response.headers.get('x-ferry-cache')).toBe('miss')
				expect(upstream.requests.length - before).toBe(1)
				expect(upstream.requests.at(-1)!.body.messages[0]).toEqual({ role: 'system', content: systemPrompt })
				const again = await ask(prompt)
				expect(again.response.headers.get('x-ferry-cache')).toBe('hit')
				expect(again.data).toEqual(changed.data)
				expect(upstream.requests.length - before).toBe(1)
			} finally {
				await editChannel({ setting: '' })
			}
		})

		test('an entry keeps serving when only the channel\'s name, weight or priority changes', async () => {
			const prompt = freshPrompt()
			const before = upstream.requests.length
			const first = await ask(prompt)
			const channel = (await harness.ferry.call('GET', `/api/channel/${channelId}`, { as: harness.root })).body.data
			await editChannel({ name: 'renamed', weight: channel.weight + 5, priority: channel.priority + 2 })
			try {
				const second = await ask(prompt)
				expect(second.response.headers.get('x-ferry-cache')).toBe('hit')
				expect(second.data).toEqual(first.data)
				expect(upstream.requests.length - before).toBe(1)
			} finally {
				await editChannel({ name: channel.name, weight: channel.weight, priority: channel.priority })
			}
		})

		test('ResponseCacheMaxBytes bounds what is kept, and turning the cache off stops it at once', async () => {
			await harness.ferry.dependencies.options.set('ResponseCacheMaxBytes', '100')
			const prompt = freshPrompt()
			await ask(prompt)
			expect((await ask(prompt)).response.headers.get('x-ferry-cache')).toBe('miss')
			await harness.ferry.dependencies.options.set('ResponseCacheMaxBytes', String(64 * 1024 * 1024))
			await ask(prompt)
			expect((await ask(prompt)).response.headers.get('x-ferry-cache')).toBe('hit')
			await harness.ferry.dependencies.options.set('ResponseCacheSeconds', '0')
			const before = upstream.requests.length
			const off = await ask(prompt)
			expect(off.response.headers.get('x-ferry-cache')).toBeNull()
			expect(upstream.requests.length - before).toBe(1)
		})

		test('/metrics counts the cache\'s hits and misses', async () => {
			const scrape = async () => await (await fetch(`${harness.baseUrl}/metrics`)).text()
			const count = (text: string, result: string) => Number(new RegExp(`^ferry_response_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
			const before = await scrape()
			const prompt = freshPrompt()
			await ask(prompt)
			await ask(prompt)
			const after = await scrape()
			expect(count(after, 'miss') - count(before, 'miss')).toBe(1)
			expect(count(after, 'hit') - count(before, 'hit')).toBe(1)
			expect(after).toMatch(/^ferry_response_cache_memory_bytes [1-9]\d*$/m)
		})
	})
}

describe.skipIf(!redisUrl())('the response cache in Redis', () => {
	let harness: RelayHarness
	let upstream: FakeOpenAI

	beforeAll(async () => {
		;({ harness, upstream } = await cacheHarness(databaseTargets()[0]!, redisUrl()))
	})
	afterAll(() => harness.close())

	test('keeps its entries in Redis, bounded by ResponseCacheMaxBytes, and answers from them', async () => {
		const client = harness.client((await harness.createToken()).key)
		const prompt = freshPrompt()
		const ask = () => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: prompt }] }).withResponse()
		const before = upstream.requests.length
		await ask()
		const redis = harness.ferry.redis!
		const bytes = async () => Number(await redis.command((link) => link.get(`${redis.prefix}rcache:bytes`)) ?? 0)
		for (let wait = 0; wait < 50 && await bytes() === 0; wait++) await Bun.sleep(20)
		expect(await bytes()).toBeGreaterThan(0)
		expect((await ask()).response.headers.get('x-ferry-cache')).toBe('hit')
		expect(upstream.requests.length - before).toBe(1)
		// Memory holds nothing: the entries are Redis's.
		expect(harness.ferry.relay.responseCache.bytes()).toBe(0)
		const maxBytes = 4096
		await harness.ferry.dependencies.options.set('ResponseCacheMaxBytes', String(maxBytes))
		for (let call = 0; call < 8; call++) await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: freshPrompt() }] })
		await Bun.sleep(50)
		expect(await bytes()).toBeLessThanOrEqual(maxBytes)
		expect(await bytes()).toBeGreaterThan(0)
	})
})
