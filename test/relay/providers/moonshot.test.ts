import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/moonshot`
const MODEL = 'moonshot-v1-8k'

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

describe('the Moonshot provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ [MODEL]: 1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.moonshot, key: 'sk-moonshot-key', base_url: upstream.url, models: MODEL })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]

	test('sends chat to /v1/chat/completions with the key as a bearer token and bills the reported usage', async () => {
		upstream.answerWith('chat.json')
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v1/chat/completions')
		expect(sent.headers.get('authorization')).toBe('Bearer sk-moonshot-key')
		expect(sent.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(answer.choices[0]!.message.content).toBe('Hello! How can I help you today?')
		expect(answer.usage).toMatchObject({ prompt_tokens: 19, completion_tokens: 9 })
		expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 19, completion_tokens: 9, quota: 28 })
	})

	test('streams chat and bills the streamed call', async () => {
		upstream.answerWith('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		expect(text).toBe('Hello!')
		expect(upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
		// Moonshot puts the stream's usage inside the last choice, where OpenAI's convention does not look: counted locally.
		expect(await lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, other: { local_count_tokens: true } })
		expect((await lastLog()).quota).toBeGreaterThan(0)
	})

	test('passes tools upstream and returns the tool call', async () => {
		upstream.answerWith('chat-tools.json')
		const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
		const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Beijing?' }], tools })
		expect(upstream.requests.at(-1)!.body.tools).toEqual(tools)
		expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
		expect(answer.choices[0]!.message.tool_calls).toEqual([
			{ index: 0, id: 'get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Beijing"}' } } as never,
		])
		expect(await lastLog()).toMatchObject({ prompt_tokens: 64, completion_tokens: 14 })
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-invalid-request.json', 400)
		const error = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(OpenAI.BadRequestError)
		expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('Your request exceeded model token limit: 8192')
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-authentication.json', 401)
		const error = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }).catch((caught: unknown) => caught)
		expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502)
		expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('the upstream rejected the channel credentials')
	})
})
