import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { forgetAccessTokens } from '@/relay/providers/baidu/access-token'
import { failureOf, fixturePath, readStream, type RecordedRequest, setUpProviderTest } from '../../helpers/fixture-upstream'

const API_KEY = 'ferryBaiduApiKey'
const SECRET_KEY = 'ferryBaiduSecretKey'
const ACCESS_TOKEN = '24.6c5e1ff107f0e8bcef8c46d3424a0e78.2592000.1485516651.282335-8574074'
const WORKSHOP = '/rpc/2.0/ai_custom/v1/wenxinworkshop'

describe('the Baidu Wenxin provider (type 15)', () => {
	const tokenRequests: RecordedRequest[] = []
	let refuseTokens = false
	/** Milliseconds the token service waits before answering, so concurrent calls overlap the exchange. */
	let tokenDelayMs = 0
	const suite = setUpProviderTest({
		fixtures: 'baidu',
		modelRatio: { 'ERNIE-4.0-8K': 1, 'ERNIE-Speed-8K': 1, 'Embedding-V1': 1 },
		channels: [{ type: 15, key: `${API_KEY}|${SECRET_KEY}`, models: 'ERNIE-4.0-8K,ERNIE-Speed-8K,Embedding-V1' }],
		async intercept(request) {
			if (request.path !== '/oauth/2.0/token') return undefined
			tokenRequests.push(request)
			await Bun.sleep(tokenDelayMs)
			if (refuseTokens) return new Response(JSON.stringify({ error: 'invalid_client', error_description: 'unknown client id' }), { status: 401, headers: { 'content-type': 'application/json' } })
			return new Response(Bun.file(fixturePath('baidu', 'token-answer.json')), { headers: { 'content-type': 'application/json' } })
		},
	})

	test('a chat call fetches an access token with the key pair and sends the model\'s own endpoint', async () => {
		suite.upstream.answerWith('chat-answer.json')
		const reply = await suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }], max_tokens: 100 })
		expect(reply.choices[0]!.message.content).toBe('Hello from ERNIE')
		expect(reply.choices[0]!.finish_reason).toBe('stop')
		expect(reply.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 })

		const token = tokenRequests.at(-1)!
		expect(token.method).toBe('POST')
		expect(Object.fromEntries(token.query)).toEqual({ grant_type: 'client_credentials', client_id: API_KEY, client_secret: SECRET_KEY })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.path).toBe(`${WORKSHOP}/chat/completions_pro`)
		expect(sent.query.get('access_token')).toBe(ACCESS_TOKEN)
		expect(sent.body).toEqual({ messages: [{ role: 'user', content: 'Say hello' }], stream: false, system: 'Be brief', max_output_tokens: 100 })
	})

	test('the access token is cached: later calls do not ask for a new one', async () => {
		suite.upstream.answerWith('chat-answer.json')
		const before = tokenRequests.length
		await suite.client.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'Hi' }] })
		await suite.client.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'Hi' }] })
		expect(tokenRequests.length).toBe(before)
		expect(suite.upstream.requests.at(-1)!.path).toBe(`${WORKSHOP}/chat/ernie_speed`)
	})

	test('concurrent first calls share one token exchange', async () => {
		forgetAccessTokens()
		suite.upstream.answerWith('chat-answer.json')
		const before = tokenRequests.length
		tokenDelayMs = 100
		const replies = await Promise.all(Array.from({ length: 5 }, () => suite.client.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'Hi' }] })))
		tokenDelayMs = 0
		expect(replies.map((reply) => reply.choices[0]!.message.content)).toEqual(Array(5).fill('Hello from ERNIE'))
		expect(tokenRequests.length).toBe(before + 1)
		expect(suite.upstream.requests.map((request) => request.query.get('access_token'))).toEqual(Array(5).fill(ACCESS_TOKEN))
	})

	test('the call is billed with the tokens Baidu reported', async () => {
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await suite.lastConsumeLog()).toMatchObject({ model_name: 'ERNIE-4.0-8K', prompt_tokens: 7, completion_tokens: 4, is_stream: false })
	})

	test('a stream of result pieces becomes OpenAI chunks with the last usage, and is billed', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage, finishReasons } = await readStream(stream)
		expect(text).toBe('Hello from ERNIE')
		expect(finishReasons).toEqual([null, null, 'stop'])
		expect(usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 4 })
		expect(suite.upstream.requests.at(-1)!.body.stream).toBe(true)
		expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 7, completion_tokens: 4, is_stream: true })
	})

	test('tools are sent as functions and a function call comes back as an OpenAI tool call', async () => {
		suite.upstream.answerWith('function-call-answer.json')
		const parameters = { type: 'object', properties: { location: { type: 'string' } } }
		const reply = await suite.client.chat.completions.create({
			model: 'ERNIE-4.0-8K',
			messages: [{ role: 'user', content: 'Weather in Beijing?' }],
			tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters } }],
		})
		expect(reply.choices[0]!.finish_reason).toBe('tool_calls')
		expect(reply.choices[0]!.message.tool_calls).toEqual([{ id: 'call_as-fn4t7xq2kd', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Beijing"}' } }])
		expect(suite.upstream.requests.at(-1)!.body.functions).toEqual([{ name: 'get_weather', description: 'Current weather', parameters }])
	})

	test('a tool result is sent as a function message named after the called function', async () => {
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({
			model: 'ERNIE-4.0-8K',
			messages: [
				{ role: 'user', content: 'Weather in Beijing?' },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Beijing"}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
			],
		})
		expect(suite.upstream.requests.at(-1)!.body.messages.slice(1)).toEqual([
			{ role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{"location":"Beijing"}' } },
			{ role: 'function', name: 'get_weather', content: 'Sunny' },
		])
	})

	test('embeddings go to the model\'s embedding endpoint and are billed by prompt tokens', async () => {
		suite.upstream.answerWith('embedding-answer.json')
		const reply = await suite.client.embeddings.create({ model: 'Embedding-V1', input: ['one', 'two'] })
		expect(reply.data.map((item) => item.embedding.length)).toEqual([3, 3])
		expect(reply.usage).toMatchObject({ prompt_tokens: 12, total_tokens: 12 })
		expect(suite.upstream.requests.at(-1)!.path).toBe(`${WORKSHOP}/embeddings/embedding-v1`)
		expect(suite.upstream.requests.at(-1)!.body).toEqual({ input: ['one', 'two'] })
		expect(await suite.lastConsumeLog()).toMatchObject({ model_name: 'Embedding-V1', prompt_tokens: 12 })
	})

	test('an error_code in a 200 answer is an error for the client, not a billed answer', async () => {
		const failure = await suite.failsUnbilled(() => suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }), 'error-answer.json')
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
	})

	test('an error message that echoes the key pair reaches the client with each part of the key blanked', async () => {
		suite.upstream.answerWith('error-echoing-credentials.json')
		const failure = await failureOf(suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure!.message).toContain('Baidu error 336003: invalid argument: client_secret *** does not match client_id ***')
		expect(failure!.message).not.toContain(SECRET_KEY)
		expect(failure!.message).not.toContain(API_KEY)
	})

	test('an error answered to a stream request ends the stream with an error, unbilled', async () => {
		const failure = await suite.failsUnbilled(async () => readStream(await suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }], stream: true })), 'error-answer.json')
		expect(failure).toBeInstanceOf(Error)
	})

	test('a token Baidu calls invalid is dropped, so the next call fetches a new one', async () => {
		suite.upstream.answerWith('token-error-answer.json')
		await failureOf(suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		const before = tokenRequests.length
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(tokenRequests.length).toBe(before + 1)
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }), 'token-error-answer.json'))

	test('a key pair the token service refuses is reported as rejected credentials, not as an unreachable upstream', async () => {
		// Baidu's 110 drops the cached token, so the next call asks the token service again.
		suite.upstream.answerWith('token-error-answer.json')
		await failureOf(suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		refuseTokens = true
		const failure = await failureOf(suite.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Say hello' }] }))
		refuseTokens = false
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
	})
})
