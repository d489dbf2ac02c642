import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/baidu-v2`
const fixture = (name: string) => Bun.file(`${FIXTURES}/${name}`).text()
const API_KEY = 'bce-v3/ALTAK-ferrytest/0123456789abcdef'
const APP_ID = 'app-ferry42'
const MODEL = 'ernie-4.0-turbo-8k'

interface Recorded { method: string; path: string; headers: Record<string, string>; body: any }

describe('the Baidu Qianfan V2 provider (type 46)', () => {
	let harness: RelayHarness
	let client: OpenAI
	let upstream: ReturnType<typeof Bun.serve>
	const requests: Recorded[] = []
	let answer: () => Promise<Response>

	beforeAll(async () => {
		upstream = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				requests.push({ method: request.method, path: new URL(request.url).pathname, headers: Object.fromEntries(request.headers), body: await request.json() })
				return answer()
			},
		})
		harness = await startRelayHarness(databaseTargets()[0]!)
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1, 'ernie-speed-8k': 1 }))
		const base_url = `http://127.0.0.1:${upstream.port}`
		await harness.createChannel({ type: 46, key: API_KEY, base_url, models: MODEL })
		await harness.createChannel({ type: 46, key: `${API_KEY}|${APP_ID}`, base_url, models: 'ernie-speed-8k' })
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

	test('a chat call is passed to /v2/chat/completions with the API key as a Bearer token', async () => {
		answer = json('chat-answer.json')
		const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(reply.choices[0]!.message.content).toBe('Hello from Qianfan')
		const sent = requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v2/chat/completions')
		expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`)
		expect(sent.headers.appid).toBeUndefined()
		expect(sent.body).toMatchObject({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 3, completion_tokens: 4 })
	})

	test('a key written APIKey|AppId also sends the application id in the appid header', async () => {
		answer = json('chat-answer.json')
		await client.chat.completions.create({ model: 'ernie-speed-8k', messages: [{ role: 'user', content: 'Say hello' }] })
		const sent = requests.at(-1)!
		expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`)
		expect(sent.headers.appid).toBe(APP_ID)
	})

	test('a stream passes through with its usage and is billed', async () => {
		answer = sse('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.usage) usage = chunk.usage
		}
		expect(text).toBe('Hello from Qianfan')
		expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 })
		expect(requests.at(-1)!.body.stream_options).toEqual({ include_usage: true })
		expect(await lastConsumeLog()).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, is_stream: true })
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', async () => {
		answer = json('error-401.json', 401)
		const failure = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }).then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
	})
})
