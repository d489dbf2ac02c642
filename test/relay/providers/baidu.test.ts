import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/baidu`
const fixture = (name: string) => Bun.file(`${FIXTURES}/${name}`).text()
const API_KEY = 'ferryBaiduApiKey'
const SECRET_KEY = 'ferryBaiduSecretKey'
const ACCESS_TOKEN = '24.6c5e1ff107f0e8bcef8c46d3424a0e78.2592000.1485516651.282335-8574074'
const WORKSHOP = '/rpc/2.0/ai_custom/v1/wenxinworkshop'

interface Recorded { method: string; path: string; query: URLSearchParams; body: any }

describe('the Baidu Wenxin provider (type 15)', () => {
	let harness: RelayHarness
	let client: OpenAI
	let upstream: ReturnType<typeof Bun.serve>
	const requests: Recorded[] = []
	const tokenRequests: Recorded[] = []
	let refuseTokens = false
	let answer: () => Promise<Response>

	beforeAll(async () => {
		upstream = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				const url = new URL(request.url)
				const text = await request.text()
				const recorded = { method: request.method, path: url.pathname, query: url.searchParams, body: text ? JSON.parse(text) : undefined }
				if (url.pathname === '/oauth/2.0/token') {
					tokenRequests.push(recorded)
					if (refuseTokens) return new Response(JSON.stringify({ error: 'invalid_client', error_description: 'unknown client id' }), { status: 401, headers: { 'content-type': 'application/json' } })
					return new Response(await fixture('token-answer.json'), { headers: { 'content-type': 'application/json' } })
				}
				requests.push(recorded)
				return answer()
			},
		})
		harness = await startRelayHarness(databaseTargets()[0]!)
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), 'ERNIE-4.0-8K': 1, 'ERNIE-Speed-8K': 1, 'Embedding-V1': 1 }))
		await harness.createChannel({ type: 15, key: `${API_KEY}|${SECRET_KEY}`, base_url: `http://127.0.0.1:${upstream.port}`, models: 'ERNIE-4.0-8K,ERNIE-Speed-8K,Embedding-V1' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop(true)
	})
	beforeEach(() => {
		requests.length = 0
	})

	const json = (name: string, status = 200) => async () => new Response(await fixture(name), { status, headers: { 'content-type': 'application/json' } })
	const sse = (name: string) => async () => new Response(await fixture(name), { headers: { 'content-type': 'text/event-stream' } })
	const lastConsumeLog = async () => {
		const logs = await harness.ferry.call('GET', '/api/log/?page_size=100', { as: harness.root })
		return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)
	}
	const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('a chat call fetches an access token with the key pair and sends the model\'s own endpoint', async () => {
		answer = json('chat-answer.json')
		const reply = await client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }], max_tokens: 100 })
		expect(reply.choices[0]!.message.content).toBe('Hello from ERNIE')
		expect(reply.choices[0]!.finish_reason).toBe('stop')
		expect(reply.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 })

		const token = tokenRequests.at(-1)!
		expect(token.method).toBe('POST')
		expect(Object.fromEntries(token.query)).toEqual({ grant_type: 'client_credentials', client_id: API_KEY, client_secret: SECRET_KEY })
		const sent = requests.at(-1)!
		expect(sent.path).toBe(`${WORKSHOP}/chat/completions_pro`)
		expect(sent.query.get('access_token')).toBe(ACCESS_TOKEN)
		expect(sent.body).toEqual({ messages: [{ role: 'user', content: 'Say hello' }], stream: false, system: 'Be brief', max_output_tokens: 100 })
	})

	test('the access token is cached: later calls do not ask for a new one', async () => {
		answer = json('chat-answer.json')
		const before = tokenRequests.length
		await client.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'Hi' }] })
		await client.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'Hi' }] })
		expect(tokenRequests.length).toBe(before)
		expect(requests.at(-1)!.path).toBe(`${WORKSHOP}/chat/ernie_speed`)
	})

	test('the call is billed with the tokens Baidu reported', async () => {
		answer = json('chat-answer.json')
		await client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await lastConsumeLog()).toMatchObject({ model_name: 'ERNIE-4.0-8K', prompt_tokens: 7, completion_tokens: 4, is_stream: false })
	})

	test('a stream of result pieces becomes OpenAI chunks with the last usage, and is billed', async () => {
		answer = sse('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		const finishReasons: (string | null)[] = []
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.choices[0]) finishReasons.push(chunk.choices[0].finish_reason)
			if (chunk.usage) usage = chunk.usage
		}
		expect(text).toBe('Hello from ERNIE')
		expect(finishReasons).toEqual([null, null, 'stop'])
		expect(usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 4 })
		expect(requests.at(-1)!.body.stream).toBe(true)
		expect(await lastConsumeLog()).toMatchObject({ prompt_tokens: 7, completion_tokens: 4, is_stream: true })
	})

	test('tools are sent as functions and a function call comes back as an OpenAI tool call', async () => {
		answer = json('function-call-answer.json')
		const parameters = { type: 'object', properties: { location: { type: 'string' } } }
		const reply = await client.chat.completions.create({
			model: 'ERNIE-4.0-8K',
			messages: [{ role: 'user', content: 'Weather in Beijing?' }],
			tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters } }],
		})
		expect(reply.choices[0]!.finish_reason).toBe('tool_calls')
		expect(reply.choices[0]!.message.tool_calls).toEqual([{ id: 'call_as-fn4t7xq2kd', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Beijing"}' } }])
		expect(requests.at(-1)!.body.functions).toEqual([{ name: 'get_weather', description: 'Current weather', parameters }])
	})

	test('a tool result is sent as a function message named after the called function', async () => {
		answer = json('chat-answer.json')
		await client.chat.completions.create({
			model: 'ERNIE-4.0-8K',
			messages: [
				{ role: 'user', content: 'Weather in Beijing?' },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Beijing"}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
			],
		})
		expect(requests.at(-1)!.body.messages.slice(1)).toEqual([
			{ role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{"location":"Beijing"}' } },
			{ role: 'function', name: 'get_weather', content: 'Sunny' },
		])
	})

	test('embeddings go to the model\'s embedding endpoint and are billed by prompt tokens', async () => {
		answer = json('embedding-answer.json')
		const reply = await client.embeddings.create({ model: 'Embedding-V1', input: ['one', 'two'] })
		expect(reply.data.map((item) => item.embedding.length)).toEqual([3, 3])
		expect(reply.usage).toMatchObject({ prompt_tokens: 12, total_tokens: 12 })
		expect(requests.at(-1)!.path).toBe(`${WORKSHOP}/embeddings/embedding-v1`)
		expect(requests.at(-1)!.body).toEqual({ input: ['one', 'two'] })
		expect(await lastConsumeLog()).toMatchObject({ model_name: 'Embedding-V1', prompt_tokens: 12 })
	})

	test('an error_code in a 200 answer is an error for the client, not a billed answer', async () => {
		const before = await lastConsumeLog()
		answer = json('error-answer.json')
		const failure = await failureOf(client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
		expect((await lastConsumeLog())?.id).toBe(before?.id)
	})

	test('an error answered to a stream request ends the stream with an error, unbilled', async () => {
		const before = await lastConsumeLog()
		answer = json('error-answer.json')
		const failure = await failureOf((async () => {
			const stream = await client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }], stream: true })
			for await (const chunk of stream) void chunk
		})())
		expect(failure).toBeInstanceOf(Error)
		expect((await lastConsumeLog())?.id).toBe(before?.id)
	})

	test('a token Baidu calls invalid is dropped, so the next call fetches a new one', async () => {
		answer = json('token-error-answer.json')
		await failureOf(client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		const before = tokenRequests.length
		answer = json('chat-answer.json')
		await client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(tokenRequests.length).toBe(before + 1)
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', async () => {
		answer = json('token-error-answer.json', 401)
		const failure = await failureOf(client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
	})

	test('a key pair the token service refuses is reported as rejected credentials, not as an unreachable upstream', async () => {
		// Baidu's 110 drops the cached token, so the next call asks the token service again.
		answer = json('token-error-answer.json')
		await failureOf(client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		refuseTokens = true
		const failure = await failureOf(client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		refuseTokens = false
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
	})
})
