import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/deepseek`
const MODEL = 'deepseek-chat'

interface SentRequest { method: string; path: string; headers: Headers; body: any }

/** Answers every request with one fixture file, recording what was sent. */
function startUpstream() {
	const requests: SentRequest[] = []
	let answer = { file: 'chat.json', status: 200 }
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			requests.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers, body: await request.json() })
			const type = answer.file.endsWith('.sse') ? 'text/event-stream' : 'application/json'
			return new Response(Bun.file(`${FIXTURES}/${answer.file}`), { status: answer.status, headers: { 'content-type': type } })
		},
	})
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		answerWith(file: string, status = 200) {
			answer = { file, status }
		},
		stop: () => server.stop(true),
	}
}

describe('the DeepSeek provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'deepseek-chat': 1, 'deepseek-reasoner': 1 }))
		await harness.ferry.dependencies.options.set('CacheRatio', JSON.stringify({ 'deepseek-chat': 0.1, 'deepseek-reasoner': 0.1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.deepseek, key: 'sk-deepseek-key', base_url: upstream.url, models: 'deepseek-chat,deepseek-reasoner' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('sends chat to /chat/completions and bills the usage the upstream reported', async () => {
		upstream.answerWith('chat.json')
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/chat/completions')
		expect(sent.headers.get('authorization')).toBe('Bearer sk-deepseek-key')
		expect(sent.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(answer.choices[0]!.message.content).toBe('Hello! How can I help you today?')
		expect(answer.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 20 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 1000, completion_tokens: 20, quota: 389 })
		// (1000 − 768) + 768 × 0.1 + 20 × 4 (default completion ratio) ≈ 389: the cache hits bill at the cache ratio and are not counted twice.
		expect((await lastLog()).other).toMatchObject({ cache_tokens: 768 })
		expect(answer.usage?.prompt_tokens_details?.cached_tokens).toBe(768)
	})

	test('counts the cache hits once when DeepSeek also reports them in OpenAI\'s convention', async () => {
		upstream.answerWith('chat-both-cache-fields.json')
		await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(await lastLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 20, quota: 389, other: { cache_tokens: 768 } })
	})

	test('streams reasoning and content deltas through and bills the last chunk\'s usage with its cache hits', async () => {
		upstream.answerWith('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		let reasoning = ''
		for await (const chunk of stream) {
			const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string | null } | undefined
			text += delta?.content ?? ''
			reasoning += delta?.reasoning_content ?? ''
		}
		expect(text).toBe('Hello!')
		expect(reasoning).toBe('A greeting.')
		expect(upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
		// (400 − 256) + 256 × 0.1 + 30 × 4 ≈ 290
		expect(await lastLog()).toMatchObject({ model_name: 'deepseek-reasoner', is_stream: true, prompt_tokens: 400, completion_tokens: 30, quota: 290, other: { cache_tokens: 256 } })
	})

	test('ends the client\'s stream with an error event when DeepSeek sends a malformed one', async () => {
		upstream.answerWith('chat-stream-malformed.sse')
		const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${(await harness.createToken()).key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
		})
		expect(await response.text()).toContain('the upstream sent a malformed stream event')
	})

	test('passes tools upstream and returns the tool call', async () => {
		upstream.answerWith('chat-tools.json')
		const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
		expect(upstream.requests.at(-1)!.body.tools).toEqual(tools)
		expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
		expect(answer.choices[0]!.message.tool_calls).toEqual([{ id: 'call_0_8a1d5d8f-6c8b-4a2e-9f41-2e5b7c3d1a90', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }])
		expect(await lastLog()).toMatchObject({ prompt_tokens: 120, completion_tokens: 24 })
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-insufficient-balance.json', 402)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(402)
		expect(error?.message).toContain('Insufficient Balance')
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-authentication.json', 401)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error?.status).toBe(502)
		expect(error?.message).toContain('the upstream rejected the channel credentials')
	})
})
