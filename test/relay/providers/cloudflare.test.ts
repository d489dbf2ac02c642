import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/cloudflare`
const MODEL = '@cf/meta/llama-3.1-8b-instruct'
const EMBEDDING_MODEL = '@cf/baai/bge-base-en-v1.5'

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

describe('the Cloudflare Workers AI provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ '@cf/meta/llama-3.1-8b-instruct': 1, '@cf/baai/bge-base-en-v1.5': 1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.cloudflare, key: 'cf-api-token', base_url: upstream.url, models: '@cf/meta/llama-3.1-8b-instruct,@cf/baai/bge-base-en-v1.5', other: '023e105f4ecef8ad9ca31a8372d0c353' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('sends chat to /client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/chat/completions and bills the usage the upstream reported', async () => {
		upstream.answerWith('chat.json')
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/chat/completions')
		expect(sent.headers.get('authorization')).toBe('Bearer cf-api-token')
		expect(sent.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(answer.choices[0]!.message.content).toBe('Hello! How can I assist you today?')
		expect(answer.usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 10 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 17, completion_tokens: 10, quota: 27 })
	})

	test('streams chat and bills the usage of its last chunk', async () => {
		upstream.answerWith('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		expect(text).toBe('Hello!')
		const sent = upstream.requests.at(-1)!.body
		expect(sent.stream).toBe(true)
		expect(sent.stream_options).toEqual({ include_usage: true })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, prompt_tokens: 17, completion_tokens: 2, quota: 19 })
	})

	test('passes tools upstream and returns the tool call', async () => {
		upstream.answerWith('chat-tools.json')
		const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
		expect(upstream.requests.at(-1)!.body.tools).toEqual(tools)
		expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
		expect(answer.choices[0]!.message.tool_calls).toEqual([{ id: 'chatcmpl-tool-8fcb0a44b6', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }])
		expect(await lastLog()).toMatchObject({ prompt_tokens: 240, completion_tokens: 19 })
	})

	test('sends embeddings to /client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/embeddings and bills their prompt tokens', async () => {
		upstream.answerWith('embeddings.json')
		const answer = await client.embeddings.create({ model: EMBEDDING_MODEL, input: ['first text', 'second text'] })
		const sent = upstream.requests.at(-1)!
		expect(sent.path).toBe('/client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/embeddings')
		expect(sent.headers.get('authorization')).toBe('Bearer cf-api-token')
		expect(sent.body).toEqual({ model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' })
		expect(answer.data.map((item) => item.embedding)).toEqual([[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]])
		expect(await lastLog()).toMatchObject({ model_name: EMBEDDING_MODEL, prompt_tokens: 6, completion_tokens: 0, quota: 6 })
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-bad-input.json', 400)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(400)
		expect(error?.message).toContain("Bad input: must have required property 'messages'")
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-authentication.json', 401)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error?.status).toBe(502)
		expect(error?.message).toContain('the upstream rejected the channel credentials')
	})
})
