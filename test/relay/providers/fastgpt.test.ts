import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/fastgpt`
const MODEL = 'fastgpt-app'

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

describe('the FastGPT provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'fastgpt-app': 1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.fastgpt, key: 'fastgpt-z51pkjqm9nrk03a1rx2funoy-6641b7a1c0d6b9e1f2a3b4c5', base_url: upstream.url, models: 'fastgpt-app' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('sends chat to /api/v1/chat/completions and bills the usage the upstream reported', async () => {
		upstream.answerWith('chat.json')
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/api/v1/chat/completions')
		expect(sent.headers.get('authorization')).toBe('Bearer fastgpt-z51pkjqm9nrk03a1rx2funoy-6641b7a1c0d6b9e1f2a3b4c5')
		// The whole APIKey-AppId key: FastGPT reads the app from its suffix.
		expect(sent.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(answer.choices[0]!.message.content).toBe('电影《满江红》的导演是张艺谋。')
		expect(answer.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: 5 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 1, completion_tokens: 5, quota: 6 })
	})

	test('streams chat and, as FastGPT streams no usage, bills a local count', async () => {
		upstream.answerWith('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		expect(text).toBe('导演是张艺谋。')
		const sent = upstream.requests.at(-1)!.body
		expect(sent.stream).toBe(true)
		expect(sent.stream_options).toEqual({ include_usage: true })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, other: { local_count_tokens: true } })
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-app-not-found.json', 500)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(500)
		expect(error?.message).toContain('App not found')
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-key-invalid.json', 401)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error?.status).toBe(502)
		expect(error?.message).toContain('the upstream rejected the channel credentials')
	})
})
