import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/dify`
const MODEL = 'dify-app'

interface SentRequest { method: string; path: string; headers: Headers; body: any }

/** Answers every request with one fixture file, recording what was sent. */
function startUpstream() {
	const requests: SentRequest[] = []
	let answer = { file: 'chat-blocking.json', status: 200 }
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

describe('the Dify provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'dify-app': 1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.dify, key: 'app-dify-key', base_url: upstream.url, models: 'dify-app' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('sends one message as the query of a blocking chat-messages call and bills the reported usage', async () => {
		upstream.answerWith('chat-blocking.json')
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'iPhone 13 Pro Max specs?' }], user: 'alice' })
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v1/chat-messages')
		expect(sent.headers.get('authorization')).toBe('Bearer app-dify-key')
		expect(sent.body).toEqual({ inputs: {}, query: 'iPhone 13 Pro Max specs?', response_mode: 'blocking', user: 'alice' })
		expect(answer.model).toBe(MODEL)
		expect(answer.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'iPhone 13 Pro Max specs are listed here:...' })
		expect(answer.choices[0]!.finish_reason).toBe('stop')
		expect(answer.usage).toEqual({ prompt_tokens: 1033, completion_tokens: 135, total_tokens: 1168 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 1033, completion_tokens: 135, quota: 1168 })
	})

	test('writes a longer conversation into the query as a transcript, with a default user', async () => {
		upstream.answerWith('chat-blocking.json')
		await client.chat.completions.create({ model: MODEL, messages: [
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: [{ type: 'text', text: 'Hi' }] },
			{ role: 'assistant', content: 'Hello.' },
			{ role: 'user', content: 'Specs?' },
		] })
		expect(upstream.requests.at(-1)!.body).toEqual({ inputs: {}, query: 'system: Be brief.\nuser: Hi\nassistant: Hello.\nuser: Specs?', response_mode: 'blocking', user: 'ferry' })
	})

	test('streams message events as OpenAI chunks, skipping the others, and bills the message_end usage', async () => {
		upstream.answerWith('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		const finishes: unknown[] = []
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason)
			if (chunk.usage) usage = chunk.usage
		}
		expect(upstream.requests.at(-1)!.body).toMatchObject({ response_mode: 'streaming' })
		expect(text).toBe('Hi there!')
		expect(finishes).toEqual(['stop'])
		expect(usage).toEqual({ prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, prompt_tokens: 40, completion_tokens: 3, quota: 43 })
	})

	test('ends the client\'s stream with an error event when Dify streams an error', async () => {
		upstream.answerWith('chat-stream-error.sse')
		const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${(await harness.createToken()).key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
		})
		const text = await response.text()
		expect(text).toContain('"content":"Hi"')
		expect(text).toContain('"error"')
		expect(text).not.toContain('[DONE]')
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-invalid-param.json', 400)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(400)
		expect(error?.message).toContain('Query is required')
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-unauthorized.json', 401)
		const error = await failure(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error?.status).toBe(502)
		expect(error?.message).toContain('the upstream rejected the channel credentials')
	})
})
