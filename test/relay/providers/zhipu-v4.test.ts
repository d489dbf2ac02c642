import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/zhipu-v4`
const fixture = (name: string) => Bun.file(`${FIXTURES}/${name}`).text()
const KEY_ID = 'ferryglmid'
const KEY_SECRET = 'ferryglmsecret'
const MILLISECONDS_TOLERANCE = 60_000

interface Recorded { method: string; path: string; headers: Record<string, string>; body: any }

/** Checks a Zhipu JWT independently of the adaptor: HS256 over `header.payload` with the secret. */
function verifiedZhipuToken(token: string, secret: string) {
	const [header, payload, signature] = token.split('.')
	const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
	if (signature !== expected) throw new Error('the JWT signature does not match the key secret')
	return { header: JSON.parse(Buffer.from(header!, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) }
}

describe('the Zhipu GLM v4 provider (type 26)', () => {
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
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), 'glm-4': 1, 'embedding-2': 1 }))
		await harness.createChannel({ type: 26, key: `${KEY_ID}.${KEY_SECRET}`, base_url: `http://127.0.0.1:${upstream.port}`, models: 'glm-4,embedding-2' })
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

	test('a chat call is passed to /api/paas/v4 with a Bearer JWT signed by the key secret', async () => {
		answer = json('chat-answer.json')
		const reply = await client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(reply.choices[0]!.message.content).toBe('Hello from GLM-4')
		const sent = requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/api/paas/v4/chat/completions')
		expect(sent.body).toMatchObject({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(sent.headers.authorization).toStartWith('Bearer ')
		const { header, payload } = verifiedZhipuToken(sent.headers.authorization!.slice('Bearer '.length), KEY_SECRET)
		expect(header).toEqual({ alg: 'HS256', sign_type: 'SIGN' })
		expect(payload.api_key).toBe(KEY_ID)
		expect(Math.abs(payload.timestamp - Date.now())).toBeLessThan(MILLISECONDS_TOLERANCE)
		expect(payload.exp).toBeGreaterThan(payload.timestamp)
	})

	test('the call is billed with the reported tokens, cached prompt tokens included', async () => {
		answer = json('chat-answer.json')
		await client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] })
		const entry = await lastConsumeLog()
		expect(entry).toMatchObject({ model_name: 'glm-4', prompt_tokens: 11, completion_tokens: 5 })
		expect(entry!.other.cache_tokens).toBe(4)
	})

	test('a stream passes through with its usage and is billed', async () => {
		answer = sse('chat-stream.sse')
		const stream = await client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.usage) usage = chunk.usage
		}
		expect(text).toBe('Hello from GLM-4')
		expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5 })
		expect(requests.at(-1)!.body.stream).toBe(true)
		expect(await lastConsumeLog()).toMatchObject({ prompt_tokens: 11, completion_tokens: 5, is_stream: true })
	})

	test('embeddings go to /api/paas/v4/embeddings', async () => {
		answer = json('embedding-answer.json')
		const reply = await client.embeddings.create({ model: 'embedding-2', input: 'hello' })
		expect(reply.data[0]!.embedding).toHaveLength(3)
		expect(requests.at(-1)!.path).toBe('/api/paas/v4/embeddings')
		expect(await lastConsumeLog()).toMatchObject({ model_name: 'embedding-2', prompt_tokens: 4 })
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', async () => {
		answer = json('error-401.json', 401)
		const failure = await client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] }).then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
	})
})
