import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/ai360`
const MODEL = '360gpt-pro'
const EMBEDDING_MODEL = 'embedding_s1_v1'

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

describe('the 360 Brain provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ '360gpt-pro': 1, 'embedding_s1_v1': 1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.ai360, key: 'fk-360-key', base_url: upstream.url, models: '360gpt-pro,embedding_s1_v1' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', async () => {
		upstream.answerWith('chat.json')
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v1/chat/completions')
		expect(sent.headers.get('authorization')).toBe('Bearer fk-360-key')
		expect(sent.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(answer.choices[0]!.message.content).toBe('你好！有什么可以帮你的吗？')
		expect(answer.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 8 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 9, completion_tokens: 8, quota: 17 })
	})

	test('streams chat and bills the usage of its last chunk', async () => {
		upstream.answerWith('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		expect(text).toBe('你好！')
		const sent = upstream.requests.at(-1)!.body
		expect(sent.stream).toBe(true)
		expect(sent.stream_options).toEqual({ include_usage: true })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, prompt_tokens: 9, completion_tokens: 2, quota: 11 })
	})

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', async () => {
		upstream.answerWith('embeddings.json')
		const answer = await client.embeddings.create({ model: EMBEDDING_MODEL, input: ['first text', 'second text'] })
		const sent = upstream.requests.at(-1)!
		expect(sent.path).toBe('/v1/embeddings')
		expect(sent.headers.get('authorization')).toBe('Bearer fk-360-key')
		expect(sent.body).toEqual({ model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' })
		expect(answer.data.map((item) => item.embedding)).toEqual([[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]])
		expect(await lastLog()).toMatchObject({ model_name: EMBEDDING_MODEL, prompt_tokens: 5, completion_tokens: 0, quota: 5 })
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-invalid-request.json', 400)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(400)
		expect(error?.message).toContain('model not found: 360gpt-ultra')
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-invalid-key.json', 401)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error?.status).toBe(502)
		expect(error?.message).toContain('the upstream rejected the channel credentials')
	})
})
