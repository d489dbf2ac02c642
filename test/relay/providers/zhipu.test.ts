import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/zhipu`
const fixture = (name: string) => Bun.file(`${FIXTURES}/${name}`).text()
const KEY_ID = 'ferryzhipuid'
const KEY_SECRET = 'ferryzhipusecret'
const MODEL = 'chatglm_turbo'
const MILLISECONDS_TOLERANCE = 60_000

interface Recorded { method: string; path: string; headers: Record<string, string>; body: any }

/** Checks a Zhipu JWT independently of the adaptor: HS256 over `header.payload` with the secret. */
function verifiedZhipuToken(token: string, secret: string) {
	const [header, payload, signature] = token.split('.')
	const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
	if (signature !== expected) throw new Error('the JWT signature does not match the key secret')
	return { header: JSON.parse(Buffer.from(header!, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) }
}

describe('the Zhipu v3 provider (type 16)', () => {
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
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1 }))
		await harness.createChannel({ type: 16, key: `${KEY_ID}.${KEY_SECRET}`, base_url: `http://127.0.0.1:${upstream.port}`, models: MODEL })
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

	test('a chat call goes to the model\'s invoke URL with a JWT signed by the key secret', async () => {
		answer = json('invoke-answer.json')
		const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }], temperature: 0.7 })
		expect(reply.choices[0]!.message.content).toBe(' Hello from ChatGLM')
		expect(reply.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 })

		const sent = requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe(`/api/paas/v3/model-api/${MODEL}/invoke`)
		expect(sent.body).toEqual({
			prompt: [{ role: 'user', content: 'Be brief' }, { role: 'assistant', content: 'Okay' }, { role: 'user', content: 'Say hello' }],
			temperature: 0.7,
		})
		const { header, payload } = verifiedZhipuToken(sent.headers.authorization!, KEY_SECRET)
		expect(header).toEqual({ alg: 'HS256', sign_type: 'SIGN' })
		expect(payload.api_key).toBe(KEY_ID)
		expect(Math.abs(payload.timestamp - Date.now())).toBeLessThan(MILLISECONDS_TOLERANCE)
		expect(payload.exp).toBeGreaterThan(payload.timestamp)
	})

	test('the call is billed with the tokens Zhipu reported', async () => {
		answer = json('invoke-answer.json')
		await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 9, completion_tokens: 6, is_stream: false })
	})

	test('an sse-invoke stream becomes OpenAI chunks with the usage from the finish event, and is billed', async () => {
		answer = sse('sse-invoke.sse')
		const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		const finishReasons: (string | null)[] = []
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.choices[0]) finishReasons.push(chunk.choices[0].finish_reason)
			if (chunk.usage) usage = chunk.usage
		}
		expect(text).toBe(' Hello from ChatGLM')
		expect(finishReasons.at(-1)).toBe('stop')
		expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 6 })
		const sent = requests.at(-1)!
		expect(sent.path).toBe(`/api/paas/v3/model-api/${MODEL}/sse-invoke`)
		expect(sent.body.incremental).toBe(true)
		expect(await lastConsumeLog()).toMatchObject({ prompt_tokens: 9, completion_tokens: 6, is_stream: true })
	})

	test('success: false in a 200 answer is an error for the client, not a billed answer', async () => {
		const before = await lastConsumeLog()
		answer = json('error-answer.json')
		const failure = await failureOf(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
		expect((await lastConsumeLog())?.id).toBe(before?.id)
	})

	test('an error answered to a stream request ends the stream with an error, unbilled', async () => {
		const before = await lastConsumeLog()
		answer = json('error-answer.json')
		const failure = await failureOf((async () => {
			const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true })
			for await (const chunk of stream) void chunk
		})())
		expect(failure).toBeInstanceOf(Error)
		expect((await lastConsumeLog())?.id).toBe(before?.id)
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', async () => {
		answer = json('error-answer.json', 401)
		const failure = await failureOf(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
	})
})
