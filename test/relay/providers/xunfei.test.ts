import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { sparkSignature } from '@/relay/providers/xunfei/signed-url'
import { LOG_TYPE } from '@shared/log'
import { testConfig } from '../../helpers/app'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/xunfei`
const fixture = async (name: string) => JSON.parse(await Bun.file(`${FIXTURES}/${name}`).text())
const APP_ID = 'ferry01a'
const API_SECRET = 'ZmVycnktdGVzdC1hcGktc2VjcmV0LTAwMDAw'
const API_KEY = 'ferrytestapikey00000000000000000'
const MODEL = 'spark-chat'
const MAX_MODEL = 'spark-max'
const ULTRA_MODEL = 'SparkDesk-v4.0'
const SECONDS_TOLERANCE = 60
const SHORT_TIMEOUT_MS = 300

interface Handshake { path: string; query: URLSearchParams; headers: Record<string, string> }
interface Exchange { handshake: Handshake; frames: any[] }
interface Behaviour {
	/** Frames answered to the request frame, in order. */
	frames: unknown[]
	/** Close the socket after the last frame (Spark's habit); false keeps it open. */
	closeAfter: boolean
	/** Refuse the upgrade with this status instead of answering. */
	refuseWith?: number
}

describe('the iFlytek Spark provider (type 18, WebSocket)', () => {
	let harness: RelayHarness
	let client: OpenAI
	let upstream: ReturnType<typeof Bun.serve<Exchange>>
	const exchanges: Exchange[] = []
	let behaviour: Behaviour

	beforeAll(async () => {
		upstream = Bun.serve<Exchange>({
			hostname: '127.0.0.1',
			port: 0,
			fetch(request, server) {
				const url = new URL(request.url)
				const handshake = { path: url.pathname, query: url.searchParams, headers: Object.fromEntries(request.headers) }
				if (behaviour.refuseWith) {
					exchanges.push({ handshake, frames: [] })
					return Response.json({ message: 'HMAC signature cannot be verified' }, { status: behaviour.refuseWith })
				}
				const exchange = { handshake, frames: [] }
				exchanges.push(exchange)
				return server.upgrade(request, { data: exchange }) ? undefined : new Response('upgrade expected', { status: 400 })
			},
			websocket: {
				message(socket, message) {
					socket.data.frames.push(JSON.parse(String(message)))
					for (const frame of behaviour.frames) socket.send(JSON.stringify(frame))
					if (behaviour.closeAfter) socket.close(1000)
				},
			},
		})
		harness = await startRelayHarness(databaseTargets()[0]!)
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1, [MAX_MODEL]: 1, [ULTRA_MODEL]: 1 }))
		const baseUrl = `ws://127.0.0.1:${upstream.port}`
		const key = `${APP_ID}|${API_SECRET}|${API_KEY}`
		await harness.createChannel({ type: 18, key, base_url: baseUrl, models: `${MODEL},${ULTRA_MODEL}` })
		await harness.createChannel({ type: 18, key, base_url: baseUrl, models: MAX_MODEL, other: 'v3.5' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop(true)
	})
	beforeEach(async () => {
		exchanges.length = 0
		behaviour = { frames: await fixture('chat-frames.json'), closeAfter: true }
	})

	const lastConsumeLog = async () => {
		const logs = await harness.ferry.call('GET', '/api/log/?page_size=100', { as: harness.root })
		return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)
	}
	const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)
	const readStream = async (model: string) => {
		const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		const chunks: OpenAI.ChatCompletionChunk[] = []
		for await (const chunk of stream) chunks.push(chunk)
		return chunks
	}

	test('the signer reproduces the authorization of iFlytek\'s documented example', async () => {
		const example = await fixture('signature-example.json')
		const signed = sparkSignature(example)
		expect(signed.signature).toBe(example.signature)
		expect(signed.authorization).toBe(example.authorization)
	})

	test('a chat call opens a signed WebSocket URL and sends one request frame with the version\'s domain', async () => {
		await client.chat.completions.create({
			model: MODEL, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }], temperature: 0.5, max_tokens: 256,
		})
		const { handshake, frames } = exchanges.at(-1)!
		expect(handshake.path).toBe('/v2.1/chat')
		expect(handshake.query.get('host')).toBe(handshake.headers.host!)
		const date = handshake.query.get('date')!
		expect(Math.abs(Date.parse(date) - Date.now()) / 1000).toBeLessThan(SECONDS_TOLERANCE)
		const expected = sparkSignature({ apiKey: API_KEY, apiSecret: API_SECRET, host: handshake.headers.host!, date, path: '/v2.1/chat' })
		expect(handshake.query.get('authorization')).toBe(expected.authorization)
		expect(Buffer.from(handshake.query.get('authorization')!, 'base64').toString()).toContain(`api_key="${API_KEY}", algorithm="hmac-sha256", headers="host date request-line"`)
		expect(frames).toEqual([{
			header: { app_id: APP_ID },
			parameter: { chat: { domain: 'generalv2', temperature: 0.5, max_tokens: 256 } },
			payload: { message: { text: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }] } },
		}])
	})

	test('the answer frames become one OpenAI answer with Spark\'s usage, and the call is billed', async () => {
		const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(reply.choices[0]!.message.content).toBe('Hello from Spark')
		expect(reply.choices[0]!.finish_reason).toBe('stop')
		expect(reply.model).toBe(MODEL)
		expect(reply.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 })
		expect(await lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 14, completion_tokens: 6, is_stream: false })
	})

	test('a whole answer ends at the last frame even when Spark keeps the socket open', async () => {
		behaviour.closeAfter = false
		const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(reply.choices[0]!.message.content).toBe('Hello from Spark')
	})

	test('the channel\'s version and a SparkDesk model name choose the path and domain', async () => {
		await client.chat.completions.create({ model: MAX_MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(exchanges.at(-1)!.handshake.path).toBe('/v3.5/chat')
		expect(exchanges.at(-1)!.frames[0].parameter.chat.domain).toBe('generalv3.5')
		await client.chat.completions.create({ model: ULTRA_MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(exchanges.at(-1)!.handshake.path).toBe('/v4.0/chat')
		expect(exchanges.at(-1)!.frames[0].parameter.chat.domain).toBe('4.0Ultra')
	})

	test('a stream turns each frame into OpenAI chunks with the usage in a final chunk, and is billed', async () => {
		const chunks = await readStream(MODEL)
		expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('Hello from Spark')
		expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant')
		expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).at(-1)).toBe('stop')
		expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 })
		expect(await lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 14, completion_tokens: 6, is_stream: true })
	})

	test('tools are sent as Spark functions and a function call comes back as an OpenAI tool call', async () => {
		behaviour.frames = await fixture('function-call-frames.json')
		const parameters = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] }
		const reply = await client.chat.completions.create({
			model: MODEL,
			messages: [{ role: 'user', content: 'Weather in Hefei?' }],
			tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters } }],
		})
		expect(exchanges.at(-1)!.frames[0].payload.functions).toEqual({ text: [{ name: 'get_weather', description: 'Current weather', parameters }] })
		expect(reply.choices[0]!.finish_reason).toBe('tool_calls')
		expect(reply.choices[0]!.message.tool_calls).toEqual([
			{ id: 'call_cht000c4d2f@dx18f3c6a0b7cb8a2542', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Hefei"}' } },
		])
		expect(reply.usage).toMatchObject({ prompt_tokens: 60, completion_tokens: 11 })
	})

	test('a streamed function call arrives as a tool call delta and finishes with tool_calls', async () => {
		behaviour.frames = await fixture('function-call-frames.json')
		const chunks = await readStream(MODEL)
		const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []))
		expect(calls).toEqual([{ index: 0, id: 'call_cht000c4d2f@dx18f3c6a0b7cb8a2542', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Hefei"}' } }])
		expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).at(-1)).toBe('tool_calls')
	})

	test('an error frame reaches the client in OpenAI\'s error shape with Spark\'s code and message, unbilled', async () => {
		const before = await lastConsumeLog()
		behaviour.frames = await fixture('moderation-error-frame.json')
		const failure = await failureOf(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(400)
		expect(failure!.message).toContain('Spark error 10013: input content audit failed')
		expect((await lastConsumeLog())?.id).toBe(before?.id)
	})

	test('an error frame answered to a stream request is an HTTP error before any chunk', async () => {
		behaviour.frames = await fixture('moderation-error-frame.json')
		const failure = await failureOf(readStream(MODEL))
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(400)
	})

	test('an error frame in the middle of a stream ends the stream with an error', async () => {
		behaviour.frames = await fixture('mid-stream-error-frames.json')
		const failure = await failureOf(readStream(MODEL))
		expect(failure).toBeInstanceOf(Error)
	})

	test('Spark refusing the app\'s authorisation becomes a 502 saying the channel credentials were rejected', async () => {
		behaviour.frames = await fixture('authorisation-error-frame.json')
		const failure = await failureOf(client.chat.completions.create({ model: MAX_MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
		await enableAllChannels()
	})

	test('a handshake refused with 401 becomes a 502 saying the channel credentials were rejected', async () => {
		behaviour.refuseWith = 401
		const failure = await failureOf(client.chat.completions.create({ model: MAX_MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(exchanges.length).toBeGreaterThan(0)
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
		await enableAllChannels()
	})

	test('a loopback Spark address is refused unless private upstreams are allowed', async () => {
		const options = harness.ferry.dependencies.options
		await options.set('PrivateUpstreamsEnabled', 'false')
		try {
			const failure = await failureOf(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
			expect(failure!.status).toBe(502)
			expect(exchanges).toHaveLength(0)
		} finally {
			await options.set('PrivateUpstreamsEnabled', 'true')
		}
	})

	test('a Spark that goes silent fails the call at the configured timeout instead of hanging', async () => {
		const impatient = await startRelayHarness(databaseTargets()[0]!, {
			config: { ...testConfig, upstreamTimeouts: { connectMs: SHORT_TIMEOUT_MS, firstByteMs: SHORT_TIMEOUT_MS, idleMs: SHORT_TIMEOUT_MS, firstTokenMs: 0 } },
		})
		try {
			const options = impatient.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1 }))
			await impatient.createChannel({ type: 18, key: `${APP_ID}|${API_SECRET}|${API_KEY}`, base_url: `ws://127.0.0.1:${upstream.port}`, models: MODEL })
			const impatientClient = impatient.client((await impatient.createToken()).key)
			behaviour.frames = []
			behaviour.closeAfter = false
			const whole = await failureOf(impatientClient.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
			expect(whole!.status).toBe(502)
			behaviour.frames = (await fixture('chat-frames.json')).slice(0, 1)
			const stream = await impatientClient.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true })
			const received: string[] = []
			const streamFailure = await (async () => {
				for await (const chunk of stream) received.push(chunk.choices[0]?.delta?.content ?? '')
			})().then(() => undefined, (error: unknown) => error)
			expect(received.join('')).toBe('Hello')
			expect(streamFailure).toBeInstanceOf(Error)
		} finally {
			await impatient.close()
		}
	})

	/** A 401-like refusal auto-disables the channel; the next test needs it back. */
	async function enableAllChannels() {
		const listing = await harness.ferry.call('GET', '/api/channel/?page_size=100', { as: harness.root })
		for (const channel of listing.body.data.items as { id: number }[]) {
			await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: channel.id, status: 1 } })
		}
	}
})
