/**
 * The Responses API's WebSocket mode through Ferry (`GET /v1/responses` upgraded), driven by the
 * official openai SDK's ResponsesWS and a plain WebSocket: each `response.create` is one call, billed
 * from its usage; on an OpenAI channel the session keeps one upstream socket, so a response continued
 * with `previous_response_id` (even with `store: false`) reaches the socket that made it; on a Claude
 * channel the create is bridged to chat and Ferry continues the socket's last response itself; a
 * refused create answers an error event and the session goes on; the upgrade is authenticated before
 * anything opens upstream. Channels' max_input_tokens apply to each create as over HTTP: a prompt
 * over the limit of the socket in use goes to a channel it fits, and is refused (nothing held) when
 * none is left or when it continues a response only that channel keeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ResponsesWS } from 'openai/resources/responses/ws'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import { startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { median, probeThroughout } from '../helpers/stall-probe'

const MODEL = 'gpt-5-codex'
const CLAUDE_MODEL = 'claude-sonnet-4-5'
const PROMPT_TOKENS = 900
const COMPLETION_TOKENS = 30
const RATIO = 0.625
const COMPLETION_RATIO = 8
const QUOTA = Math.round((PROMPT_TOKENS + COMPLETION_TOKENS * COMPLETION_RATIO) * RATIO)
/** Other clients' `/api/status` while sockets are flooded: the issue's bound. */
const STATUS_BOUND_MS = 300
/** Served by the channel whose max_input_tokens is INPUT_LIMIT (first by priority) and by one without a limit. */
const FIT_MODEL = 'gpt-5-fit'
/** Served only by the channel with the limit. */
const SMALL_MODEL = 'gpt-5-small'
/** Bridged to chat on a Claude channel with the limit. */
const CLAUDE_LIMITED_MODEL = 'claude-haiku-4-5'
const INPUT_LIMIT = 64
const SHORT = 'Say hello'
/** Far more than INPUT_LIMIT tokens however it is counted. */
const LONG = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ')

function socketClient(url: string, headers: Record<string, string>) {
	const socket = new WebSocket(url, { headers } as never)
	const events: any[] = []
	const waiters: { type: string; resolve: (event: any) => void }[] = []
	socket.addEventListener('message', (message) => {
		const event = JSON.parse(String(message.data))
		const waiter = waiters.find((candidate) => candidate.type === event.type)
		if (waiter) {
			waiters.splice(waiters.indexOf(waiter), 1)
			waiter.resolve(event)
		} else events.push(event)
	})
	return {
		socket, events,
		opened: new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve())
			socket.addEventListener('error', () => reject(new Error('the socket failed to open')))
		}),
		next: (type: string) => new Promise<any>((resolve) => {
			const index = events.findIndex((event) => event.type === type)
			if (index >= 0) return resolve(events.splice(index, 1)[0])
			waiters.push({ type, resolve })
		}),
		send: (event: unknown) => socket.send(typeof event === 'string' ? event : JSON.stringify(event)),
	}
}

for (const target of databaseTargets()) {
	describe(`the Responses API over WebSocket on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let claude: FakeClaudeModel
		let small: FakeOpenAI
		let large: FakeOpenAI
		let key: string
		let wsUrl: string
		let fitter: { userId: number; key: string }

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream({ promptTokens: PROMPT_TOKENS, completionTokens: COMPLETION_TOKENS })
			claude = startFakeClaudeModel()
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ [MODEL]: RATIO, [CLAUDE_MODEL]: 1, [FIT_MODEL]: 1, [SMALL_MODEL]: 1, [CLAUDE_LIMITED_MODEL]: 1 }))
			await options.set('CompletionRatio', JSON.stringify({ [MODEL]: COMPLETION_RATIO }))
			await harness.createChannel({ type: 1, base_url: upstream.url, key: 'sk-codex-channel', models: MODEL })
			await harness.createChannel({ type: 14, base_url: claude.url, key: 'sk-ant', models: CLAUDE_MODEL })
			small = harness.startUpstream({ name: 'small' })
			large = harness.startUpstream({ name: 'large' })
			await harness.createChannel({ type: 1, name: 'small', base_url: small.url, models: `${FIT_MODEL},${SMALL_MODEL}`, priority: 10, max_input_tokens: INPUT_LIMIT })
			await harness.createChannel({ type: 1, name: 'large', base_url: large.url, models: FIT_MODEL, priority: 0 })
			await harness.createChannel({ type: 14, name: 'claude-limited', base_url: claude.url, key: 'sk-ant', models: CLAUDE_LIMITED_MODEL, max_input_tokens: INPUT_LIMIT })
			const user = await harness.ferry.createUser('fitter')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, username: 'fitter', display_name: 'fitter', quota: 10_000_000 } })
			fitter = { userId: user.userId, key: (await harness.createToken({ name: 'fit' }, user)).key }
			key = (await harness.createToken()).key
			wsUrl = `${harness.baseUrl.replace(/^http/, 'ws')}/v1/responses`
		})
		afterAll(async () => {
			await harness.close()
			await claude.stop()
		})

		const logs = async () => (await harness.ferry.call('GET', '/api/log/?page_size=10', { as: harness.root })).body.data.items as Record<string, any>[]
		const fitterQuota = async () => Number((await harness.ferry.store.read<{ quota: number }>(`SELECT quota FROM users WHERE id = ${fitter.userId}`))[0]!.quota)
		const fitterHolds = async () => (await harness.ferry.store.read<{ state: string }>(`SELECT state FROM quota_holds WHERE user_id = ${fitter.userId}`)).map((hold) => hold.state)
		/** The creates an upstream got on its sockets. */
		const creates = (fake: FakeOpenAI) => fake.sockets.flatMap((socket) => socket.received).filter((text) => JSON.parse(text).type === 'response.create').length

		test('the openai SDK\'s ResponsesWS: response.create completes over the socket and is billed like an HTTP response', async () => {
			const client = new OpenAI({ apiKey: key, baseURL: `${harness.baseUrl}/v1` })
			const socket = new ResponsesWS(client)
			const completed = new Promise<any>((resolve) => socket.on('response.completed', resolve))
			socket.send({ type: 'response.create', model: MODEL, store: false, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Find fizz_buzz()' }] }] })
			const event = await completed
			socket.close()
			expect(event.response.output[0].content[0].text).toBe('Hello from fake-openai')
			expect((await logs())[0]).toMatchObject({ type: LOG_TYPE.consume, model_name: MODEL, prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, quota: QUOTA, is_stream: true })
			const upstreamSocket = upstream.sockets.at(-1)!
			expect(upstreamSocket.kind).toBe('responses')
			expect(upstreamSocket.key).toBe('sk-codex-channel')
			expect(JSON.parse(upstreamSocket.received[0]!)).toMatchObject({ type: 'response.create', model: MODEL, store: false })
		})

		test('a response continued with previous_response_id and store: false reaches the upstream socket that made it, and each turn is billed', async () => {
			const sockets = upstream.sockets.length
			const client = socketClient(wsUrl, { authorization: `Bearer ${key}`, 'openai-beta': 'responses_websockets=2026-02-06' })
			await client.opened
			client.send({ type: 'response.create', model: MODEL, store: false, input: 'Turn one.' })
			const first = await client.next('response.completed')
			client.send({ type: 'response.create', model: MODEL, store: false, previous_response_id: first.response.id, input: [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }] })
			const second = await client.next('response.completed')
			client.socket.close()
			expect(second.response.previous_response_id).toBe(first.response.id)
			expect(upstream.sockets.length - sockets).toBe(1)
			const upstreamSocket = upstream.sockets.at(-1)!
			expect(upstreamSocket.headers['openai-beta']).toBe('responses_websockets=2026-02-06')
			expect(upstreamSocket.received).toHaveLength(2)
			const entries = (await logs()).slice(0, 2)
			expect(entries.map((entry) => entry.quota)).toEqual([QUOTA, QUOTA])
		})

		test('on a chat-only channel the create is bridged, and Ferry continues the socket\'s last response with its whole conversation', async () => {
			const client = socketClient(wsUrl, { authorization: `Bearer ${key}` })
			await client.opened
			client.send({ type: 'response.create', model: CLAUDE_MODEL, input: 'Remember the number 7.' })
			const first = await client.next('response.completed')
			expect(first.response.output[0].content[0].text).toBe('Hello from fake-claude')
			client.send({ type: 'response.create', model: CLAUDE_MODEL, previous_response_id: first.response.id, input: 'Which number?' })
			const second = await client.next('response.completed')
			expect(second.response.status).toBe('completed')
			const sent = claude.requests.at(-1)!.body
			const texts = sent.messages.flatMap((message: any) => (Array.isArray(message.content) ? message.content : [{ text: message.content }]).map((part: any) => `${message.role}:${part.text}`))
			expect(texts).toEqual(['user:Remember the number 7.', 'assistant:Hello from fake-claude', 'user:Which number?'])
			// Another id than the socket's last response: not found, and the session goes on.
			client.send({ type: 'response.create', model: CLAUDE_MODEL, previous_response_id: 'resp_unknown', input: 'Again?' })
			expect((await client.next('error')).error.code).toBe('previous_response_not_found')
			client.send({ type: 'response.create', model: CLAUDE_MODEL, input: 'Still there?' })
			expect((await client.next('response.completed')).response.status).toBe('completed')
			client.socket.close()
			expect((await logs())[0]).toMatchObject({ type: LOG_TYPE.consume, model_name: CLAUDE_MODEL })
		})

		test('an event type other than response.create passes to the upstream socket in use untouched', async () => {
			const client = socketClient(wsUrl, { authorization: `Bearer ${key}` })
			await client.opened
			client.send({ type: 'response.create', model: MODEL, input: 'Start.' })
			await client.next('response.completed')
			const steer = '{"type":"response.steer","input":[{"type":"input_text","text":"faster"}],"x":1.0}'
			client.send(steer)
			await client.next('error')
			client.socket.close()
			expect(upstream.sockets.at(-1)!.received.at(-1)).toBe(steer)
		})

		test('sockets flooded with frames of MAX_BODY_MB, deeply nested, malformed and oversized, hold no other client', async () => {
			const maxBytes = harness.ferry.dependencies.config.maxBodyBytes
			const big = JSON.stringify({ type: 'x.flood', data: 'A'.repeat(maxBytes - 64) })
			const deep = `{"type":"x.deep","v":${'['.repeat(60_000)}${']'.repeat(60_000)}}`
			const frames = [big, deep, `${big.slice(0, -2)}`, 'B'.repeat(maxBytes + 100)]
			const probes = probeThroughout(harness.baseUrl)
			for (let round = 0; round < 3; round++) {
				await Promise.all(frames.map(async (frame) => {
					const client = socketClient(wsUrl, { authorization: `Bearer ${key}` })
					await client.opened
					const closed = new Promise<void>((resolve) => client.socket.addEventListener('close', () => resolve()))
					for (let copy = 0; copy < 4; copy++) client.send(frame)
					// Each frame is answered with an error event (the malformed and oversized ones end their session).
					expect((await client.next('error')).type).toBe('error')
					client.socket.close()
					await closed
				}))
			}
			const latencies = await probes.stop()
			expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
			expect(Math.max(...latencies)).toBeLessThan(STATUS_BOUND_MS)
			// A session still works afterwards.
			const client = socketClient(wsUrl, { authorization: `Bearer ${key}` })
			await client.opened
			client.send({ type: 'response.create', model: MODEL, input: 'Still there?' })
			expect((await client.next('response.completed')).response.status).toBe('completed')
			client.socket.close()
		}, 60_000)

		test('a create over the max_input_tokens of the only channel of its model is refused with an error event context_length_exceeded on the open socket, nothing held or charged; the next short create is answered and billed', async () => {
			const client = socketClient(wsUrl, { authorization: `Bearer ${fitter.key}` })
			await client.opened
			client.send({ type: 'response.create', model: SMALL_MODEL, input: SHORT })
			expect((await client.next('response.completed')).response.output[0].content[0].text).toBe('Hello from small')
			const quota = await fitterQuota()
			const holds = await fitterHolds()
			const sent = creates(small)
			client.send({ type: 'response.create', model: SMALL_MODEL, input: LONG })
			const refused = await client.next('error')
			expect(refused).toMatchObject({ type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'context_length_exceeded' } })
			expect(refused.error.message).toContain(`at most ${INPUT_LIMIT}`)
			expect(creates(small)).toBe(sent)
			expect(await fitterHolds()).toEqual(holds)
			expect(await fitterQuota()).toBe(quota)
			client.send({ type: 'response.create', model: SMALL_MODEL, input: SHORT })
			const completed = await client.next('response.completed')
			client.socket.close()
			expect(completed.response.output[0].content[0].text).toBe('Hello from small')
			const [entry] = await logs()
			expect(entry).toMatchObject({ type: LOG_TYPE.consume, model_name: SMALL_MODEL, prompt_tokens: completed.response.usage.input_tokens })
			expect(entry!.quota).toBeGreaterThan(0)
			expect(await fitterQuota()).toBe(quota - entry!.quota)
		})

		test('a create over the max_input_tokens of the channel its socket is on goes to a socket on a channel it fits', async () => {
			const client = socketClient(wsUrl, { authorization: `Bearer ${fitter.key}` })
			await client.opened
			client.send({ type: 'response.create', model: FIT_MODEL, input: SHORT })
			expect((await client.next('response.completed')).response.output[0].content[0].text).toBe('Hello from small')
			const sent = creates(small)
			const quota = await fitterQuota()
			client.send({ type: 'response.create', model: FIT_MODEL, input: LONG })
			const completed = await client.next('response.completed')
			client.socket.close()
			expect(completed.response.output[0].content[0].text).toBe('Hello from large')
			expect(creates(small)).toBe(sent)
			const [entry] = await logs()
			expect(entry).toMatchObject({ type: LOG_TYPE.consume, model_name: FIT_MODEL, prompt_tokens: completed.response.usage.input_tokens })
			expect(await fitterQuota()).toBe(quota - entry!.quota)
		})

		test('a create continuing a response on the socket that made it is refused when its prompt is over that channel\'s max_input_tokens, not sent to another channel', async () => {
			const client = socketClient(wsUrl, { authorization: `Bearer ${fitter.key}` })
			await client.opened
			client.send({ type: 'response.create', model: FIT_MODEL, store: false, input: SHORT })
			const first = await client.next('response.completed')
			expect(first.response.output[0].content[0].text).toBe('Hello from small')
			const quota = await fitterQuota()
			const holds = await fitterHolds()
			const sent = creates(small) + creates(large)
			client.send({ type: 'response.create', model: FIT_MODEL, store: false, previous_response_id: first.response.id, input: LONG })
			const refused = await client.next('error')
			expect(refused).toMatchObject({ status: 400, error: { code: 'context_length_exceeded' } })
			expect(creates(small) + creates(large)).toBe(sent)
			expect(await fitterHolds()).toEqual(holds)
			expect(await fitterQuota()).toBe(quota)
			client.send({ type: 'response.create', model: FIT_MODEL, store: false, previous_response_id: first.response.id, input: SHORT })
			const second = await client.next('response.completed')
			client.socket.close()
			expect(second.response).toMatchObject({ previous_response_id: first.response.id, status: 'completed' })
			expect(second.response.output[0].content[0].text).toBe('Hello from small')
			const [entry] = await logs()
			expect(await fitterQuota()).toBe(quota - entry!.quota)
		})

		test('a bridged create over its chat channel\'s max_input_tokens is refused with context_length_exceeded, and the session goes on', async () => {
			const client = socketClient(wsUrl, { authorization: `Bearer ${fitter.key}` })
			await client.opened
			const quota = await fitterQuota()
			const requests = claude.requests.length
			client.send({ type: 'response.create', model: CLAUDE_LIMITED_MODEL, input: LONG })
			expect(await client.next('error')).toMatchObject({ status: 400, error: { code: 'context_length_exceeded' } })
			expect(claude.requests.length).toBe(requests)
			expect(await fitterQuota()).toBe(quota)
			client.send({ type: 'response.create', model: CLAUDE_LIMITED_MODEL, input: SHORT })
			expect((await client.next('response.completed')).response.status).toBe('completed')
			client.socket.close()
			expect((await logs())[0]).toMatchObject({ type: LOG_TYPE.consume, model_name: CLAUDE_LIMITED_MODEL })
		})

		test('a refused create answers an error event and the session goes on; an anonymous upgrade never reaches the upstream', async () => {
			const limited = (await harness.createToken({ model_limits_enabled: true, model_limits: CLAUDE_MODEL })).key
			const client = socketClient(wsUrl, { authorization: `Bearer ${limited}` })
			await client.opened
			client.send({ type: 'response.create', model: MODEL, input: 'Hi' })
			const error = await client.next('error')
			expect(error).toMatchObject({ status: 403, error: { code: 'model_not_allowed' } })
			client.send('{"type":')
			expect((await client.next('error')).error.code).toBe('invalid_json')
			const sockets = upstream.sockets.length
			const anonymous = await fetch(wsUrl.replace(/^ws/, 'http'), { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } })
			expect(anonymous.status).toBe(401)
			expect(upstream.sockets.length).toBe(sockets)
		})
	})
}
