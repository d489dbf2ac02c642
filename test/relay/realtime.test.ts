/**
 * The Realtime API through Ferry (`/v1/realtime`, WebSocket): the official openai SDK's
 * OpenAIRealtimeWS (over TLS, which it requires) and browsers' subprotocol key with a plain
 * WebSocket. The upgrade is authenticated before any upstream socket opens; events pass both ways
 * as they came (unknown ones too); each response is held when `response.created` passes and settled
 * by `response.done`'s usage — text and audio at their ratios, cached input at CacheRatio — a response
 * cut by a dropped session is voided, a wallet that cannot cover a response ends the session with an
 * error event; malformed and oversized frames close their socket with an error event and stall no
 * other session; the idle limit ends a quiet session. A channel's max_input_tokens: once a response's
 * input is over it, a response.create is refused (nothing held) and a response the upstream starts
 * by server VAD is cancelled, until the items the upstream confirms deleted (or truncated) bring the
 * measured input back under it: deleting a short item, truncating audio the measure did not include,
 * or deleting an item that does not exist leaves the refusal in place.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { OpenAIRealtimeWS } from 'openai/realtime/ws'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { loopbackCertificate } from '../helpers/tls'
import { RealtimeConversation } from '@/relay/sessions/realtime-conversation'

const MODEL = 'gpt-realtime'
const AZURE_MODEL = 'gpt-realtime-mini'
/** Served by a channel whose max_input_tokens is INPUT_LIMIT. */
const LIMITED_MODEL = 'gpt-realtime-limited'
const INPUT_LIMIT = 40
/** Some 100 input tokens in the fake's count (characters / 4). */
const LONG_TEXT = 'Tell me about the valley. '.repeat(16)
const RATIOS = { model: 2, completion: 4, cache: 0.1, audio: 8, audioCompletion: 2 }
const CACHED_TOKENS = 2

/** What a response's usage costs at RATIOS (billing/price.ts's formula). */
function quotaOf(usage: any) {
	const cached = usage.input_token_details.cached_tokens
	const audioIn = usage.input_token_details.audio_tokens - usage.input_token_details.cached_tokens_details.audio_tokens
	const audioOut = usage.output_token_details.audio_tokens
	const plainIn = usage.input_tokens - cached - audioIn
	const weighted = plainIn + cached * RATIOS.cache + audioIn * RATIOS.audio + (usage.output_tokens - audioOut) * RATIOS.completion + audioOut * RATIOS.audio * RATIOS.audioCompletion
	return Math.round(weighted * RATIOS.model)
}

/** A plain WebSocket client that collects every event and says when one of a type arrives. */
function socketClient(url: string, protocols: string[] | undefined, headers?: Record<string, string>, ca?: string) {
	const socket = new WebSocket(url, { protocols, headers, ...(ca ? { tls: { ca } } : {}) } as never)
	const events: any[] = []
	const waiters: { type: string; resolve: (event: any) => void }[] = []
	let closed: { code: number; reason: string } | undefined
	const closedWaiters: ((value: { code: number; reason: string }) => void)[] = []
	socket.addEventListener('message', (message) => {
		const event = JSON.parse(String(message.data))
		events.push(event)
		const waiter = waiters.find((candidate) => candidate.type === event.type)
		if (waiter) {
			// Each event answers one wait.
			event.__taken = true
			waiters.splice(waiters.indexOf(waiter), 1)
			waiter.resolve(event)
		}
	})
	socket.addEventListener('close', (event) => {
		closed = { code: event.code, reason: event.reason }
		for (const waiter of closedWaiters.splice(0)) waiter(closed)
	})
	return {
		socket, events,
		opened: new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve())
			socket.addEventListener('error', () => reject(new Error('the socket failed to open')))
		}),
		next: (type: string) => new Promise<any>((resolve) => {
			const seen = events.find((event) => event.type === type && !event.__taken)
			if (seen) {
				seen.__taken = true
				return resolve(seen)
			}
			waiters.push({ type, resolve })
		}),
		send: (event: unknown) => socket.send(typeof event === 'string' ? event : JSON.stringify(event)),
		closed: () => closed ? Promise.resolve(closed) : new Promise<{ code: number; reason: string }>((resolve) => closedWaiters.push(resolve)),
	}
}

const certificate = loopbackCertificate()

for (const target of databaseTargets()) {
	describe.skipIf(!certificate)(`the Realtime API over WebSocket on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let azure: FakeOpenAI
		let key: string
		let wsUrl: string

		beforeAll(async () => {
			harness = await startRelayHarness(target, {}, { tls: certificate })
			upstream = harness.startUpstream({ realtimeCachedTokens: CACHED_TOKENS })
			azure = harness.startUpstream({ apiKey: 'azure-realtime-key' })
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ [MODEL]: RATIOS.model, [AZURE_MODEL]: RATIOS.model, [LIMITED_MODEL]: RATIOS.model }))
			await options.set('CompletionRatio', JSON.stringify({ [MODEL]: RATIOS.completion, [AZURE_MODEL]: RATIOS.completion, [LIMITED_MODEL]: RATIOS.completion }))
			await options.set('CacheRatio', JSON.stringify({ [MODEL]: RATIOS.cache, [LIMITED_MODEL]: RATIOS.cache }))
			await options.set('AudioRatio', JSON.stringify({ [MODEL]: RATIOS.audio, [LIMITED_MODEL]: RATIOS.audio }))
			await options.set('AudioCompletionRatio', JSON.stringify({ [MODEL]: RATIOS.audioCompletion, [LIMITED_MODEL]: RATIOS.audioCompletion }))
			await harness.createChannel({ type: 1, base_url: upstream.url, key: 'sk-realtime-channel', models: MODEL })
			await harness.createChannel({ type: 1, name: 'limited', base_url: upstream.url, key: 'sk-realtime-channel', models: LIMITED_MODEL, max_input_tokens: INPUT_LIMIT })
			await harness.createChannel({ type: 3, base_url: azure.url, key: 'azure-realtime-key', models: AZURE_MODEL })
			key = (await harness.createToken()).key
			wsUrl = harness.baseUrl.replace(/^https/, 'wss')
		})
		afterAll(() => harness.close())

		const logs = async () => (await harness.ferry.call('GET', '/api/log/?page_size=10', { as: harness.root })).body.data.items as Record<string, any>[]
		const holdsOf = async (states: string) => (await harness.ferry.store.read<{ state: string; reason: string | null }>(`SELECT state, reason FROM quota_holds WHERE state IN (${states}) ORDER BY created_at`))
		const tlsClient = (url: string, protocols?: string[], headers?: Record<string, string>) => socketClient(url, protocols, headers, certificate!.cert)
		const rootQuota = async () => Number((await harness.ferry.store.read<{ quota: number }>(`SELECT quota FROM users WHERE id = ${harness.root.userId}`))[0]!.quota)
		const upstreamCreates = (socket: { received: string[] }) => socket.received.filter((text) => JSON.parse(text).type === 'response.create').length

		/**
		 * A session on LIMITED_MODEL whose conversation holds a short item and then LONG_TEXT, after a
		 * response (in `modality`) that reported it over INPUT_LIMIT.
		 */
		async function sessionOverTheLimit(modality: 'text' | 'audio' = 'text') {
			const client = tlsClient(`${wsUrl}/v1/realtime?model=${LIMITED_MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await client.next('session.created')
			const socket = upstream.sockets.at(-1)!
			client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi.' }] } })
			const short = (await client.next('conversation.item.done')).item
			client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: LONG_TEXT }] } })
			const item = (await client.next('conversation.item.done')).item
			client.send({ type: 'response.create', response: { output_modalities: [modality] } })
			// Ferry could not know the conversation's length before this response reported it: it is answered.
			await client.next('response.created')
			const done = await client.next('response.done')
			expect(done.response.status).toBe('completed')
			expect(done.response.usage.input_tokens).toBeGreaterThan(INPUT_LIMIT)
			return { client, socket, item, short, reply: done.response.output[0] }
		}

		/** Sends response.create and expects Ferry to refuse it without sending it upstream. */
		async function expectRefused(client: ReturnType<typeof tlsClient>, socket: { received: string[] }) {
			const creates = upstreamCreates(socket)
			client.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			const refused = await client.next('error')
			expect(refused.error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded' })
			expect(upstreamCreates(socket)).toBe(creates)
		}

		test('the openai SDK gets session.created, sends response.create, receives response.done, and the response is billed from its usage', async () => {
			const client = new OpenAI({ apiKey: key, baseURL: `${harness.baseUrl}/v1` })
			const realtime = new OpenAIRealtimeWS({ model: MODEL, options: { ca: certificate!.cert } }, client)
			const created = new Promise<any>((resolve) => realtime.on('session.created', resolve))
			await created
			const done = new Promise<any>((resolve) => realtime.on('response.done', resolve))
			realtime.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello to the people of the valley.' }] } })
			realtime.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			const event = await done
			realtime.close()
			expect(event.response.status).toBe('completed')
			const usage = event.response.usage
			expect(usage.input_token_details.cached_tokens).toBe(CACHED_TOKENS)
			const [entry] = await logs()
			expect(entry).toMatchObject({ type: LOG_TYPE.consume, model_name: MODEL, prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, quota: quotaOf(usage), is_stream: true })
			// The upstream got the channel's key, never the client's.
			const socket = upstream.sockets.at(-1)!
			expect(socket.key).toBe('sk-realtime-channel')
			expect(socket.search).toBe(`?model=${MODEL}`)
			expect(JSON.stringify(socket.headers)).not.toContain(key)
		})

		test('a browser\'s subprotocol key opens the session; audio is relayed as it came and billed at the audio ratios', async () => {
			const client = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await client.opened
			expect(client.socket.protocol).toBe('realtime')
			await client.next('session.created')
			const audio = JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(48_000, 7).toString('base64') })
			client.send(audio)
			client.send({ type: 'input_audio_buffer.commit' })
			await client.next('input_audio_buffer.committed')
			client.send({ type: 'response.create', response: { output_modalities: ['audio'] } })
			const done = await client.next('response.done')
			client.socket.close()
			const usage = done.response.usage
			expect(usage.input_token_details.audio_tokens).toBe(480)
			expect(usage.output_token_details.audio_tokens).toBeGreaterThan(0)
			expect(client.events.some((event) => event.type === 'response.output_audio.delta')).toBe(true)
			const [entry] = await logs()
			expect(entry).toMatchObject({ quota: quotaOf(usage), prompt_tokens: usage.input_tokens })
			expect(entry!.other).toMatchObject({ audio_ratio: RATIOS.audio, audio_input_tokens: 480, audio_output_tokens: usage.output_token_details.audio_tokens })
			const socket = upstream.sockets.at(-1)!
			expect(socket.received[0]).toBe(audio)
			expect(socket.headers['sec-websocket-protocol'] ?? '').not.toContain(key)
		})

		test('an upgrade without a valid token is refused with 401 before any upstream socket opens', async () => {
			const before = upstream.sockets.length
			const anonymous = await fetch(`${harness.baseUrl}/v1/realtime?model=${MODEL}`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' }, tls: { ca: certificate!.cert } } as never)
			expect(anonymous.status).toBe(401)
			expect((await anonymous.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'missing_api_key' })
			const wrong = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', 'openai-insecure-api-key.sk-not-a-token'])
			await expect(wrong.opened).rejects.toThrow()
			expect(upstream.sockets.length).toBe(before)
		})

		test('an event type Ferry does not know passes to the upstream untouched, and its answer comes back', async () => {
			const client = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await client.next('session.created')
			const unknown = '{"type":"x.ferry.probe","payload":{"n":1.50,"text":"\\u00e9"}}'
			client.send(unknown)
			const error = await client.next('error')
			client.socket.close()
			expect(upstream.sockets.at(-1)!.received).toContain(unknown)
			expect(error.error.code).toBe('invalid_value')
		})

		test('a malformed frame and an oversized frame close their socket with an error event, while another session goes on', async () => {
			const other = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await other.next('session.created')
			const malformed = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await malformed.next('session.created')
			const received = upstream.sockets.at(-1)!.received.length
			malformed.send('{"type": "response.create", ')
			const malformedError = await malformed.next('error')
			expect(malformedError.error).toMatchObject({ code: 'invalid_json', type: 'invalid_request_error' })
			expect((await malformed.closed()).code).toBe(1007)
			expect(upstream.sockets.at(-1)!.received.length).toBe(received)
			const oversized = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await oversized.next('session.created')
			oversized.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: 'A'.repeat(harness.ferry.dependencies.config.maxBodyBytes + 10) }))
			expect((await oversized.next('error')).error.code).toBe('message_too_large')
			expect((await oversized.closed()).code).toBe(1009)
			other.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			expect((await other.next('response.done')).response.status).toBe('completed')
			other.socket.close()
		})

		test('a session dropped by the upstream mid-response voids that response\'s hold and closes the client\'s socket', async () => {
			const client = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await client.next('session.created')
			const logsBefore = (await logs()).length
			client.send({ type: 'response.create', response: { instructions: 'Talk. [fake-fault:drop]', output_modalities: ['text'] } })
			await client.next('response.created')
			const closed = await client.closed()
			expect(closed.code).toBe(1011)
			for (let wait = 0; wait < 50 && (await holdsOf("'pending'")).length > 0; wait++) await Bun.sleep(20)
			expect(await holdsOf("'pending'")).toEqual([])
			expect((await holdsOf("'voided'")).at(-1)?.reason).toBe('upstream_closed')
			expect((await logs()).length).toBe(logsBefore)
		})

		test('a wallet that cannot cover a response ends the session with an insufficient-quota error event', async () => {
			const poor = await harness.ferry.createUser('rt-poor')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: poor.userId, username: 'rt-poor', display_name: 'rt-poor', quota: 3000 } })
			const poorKey = (await harness.createToken({}, poor)).key
			const client = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${poorKey}`])
			await client.next('session.created')
			client.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			const error = await client.next('error')
			expect(error.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_user_quota' })
			expect((await client.closed()).code).toBe(1008)
			expect(client.events.some((event) => event.type === 'response.done')).toBe(false)
		})

		test('an Azure channel takes the session on its v1 route, the deployment as the model, its api-key header', async () => {
			const client = tlsClient(`${wsUrl}/v1/realtime?model=${AZURE_MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
			await client.next('session.created')
			client.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			await client.next('response.done')
			client.socket.close()
			const socket = azure.sockets.at(-1)!
			expect(socket.path).toBe('/openai/v1/realtime')
			expect(socket.search).toBe('?model=gpt-realtime-mini')
			expect(socket.headers['api-key']).toBe('azure-realtime-key')
			expect((await logs())[0]).toMatchObject({ model_name: AZURE_MODEL, type: LOG_TYPE.consume })
		})

		test('once a response\'s input is over the channel\'s max_input_tokens, response.create is refused with context_length_exceeded and nothing is held or charged; after the client deletes the item, the next response is answered and billed', async () => {
			const { client, socket, item } = await sessionOverTheLimit()
			const [latest] = await logs()
			const holds = (await holdsOf("'pending', 'settled', 'voided'")).length
			const quota = await rootQuota()
			client.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			const refused = await client.next('error')
			expect(refused.error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded' })
			expect(refused.error.message).toContain(`at most ${INPUT_LIMIT}`)
			expect(upstreamCreates(socket)).toBe(1)
			expect((await logs())[0]!.id).toBe(latest!.id)
			expect((await holdsOf("'pending', 'settled', 'voided'")).length).toBe(holds)
			expect(await rootQuota()).toBe(quota)
			// The client shrinks its conversation: the session goes on.
			client.send({ type: 'conversation.item.delete', item_id: item.id })
			await client.next('conversation.item.deleted')
			client.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			const done = await client.next('response.done')
			client.socket.close()
			expect(done.response.status).toBe('completed')
			const usage = done.response.usage
			expect(usage.input_tokens).toBeLessThanOrEqual(INPUT_LIMIT)
			expect(upstreamCreates(socket)).toBe(2)
			const [entry] = await logs()
			expect(entry).toMatchObject({ type: LOG_TYPE.consume, model_name: LIMITED_MODEL, prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, quota: quotaOf(usage) })
			expect(await rootQuota()).toBe(quota - quotaOf(usage))
		})

		test('deleting a short item of a conversation over max_input_tokens leaves response.create refused, until the long item is deleted too', async () => {
			const { client, socket, item, short } = await sessionOverTheLimit()
			client.send({ type: 'conversation.item.delete', item_id: short.id })
			await client.next('conversation.item.deleted')
			await expectRefused(client, socket)
			client.send({ type: 'conversation.item.delete', item_id: item.id })
			await client.next('conversation.item.deleted')
			client.send({ type: 'response.create', response: { output_modalities: ['text'] } })
			const done = await client.next('response.done')
			client.socket.close()
			expect(done.response.status).toBe('completed')
			expect(done.response.usage.input_tokens).toBeLessThanOrEqual(INPUT_LIMIT)
			expect(upstreamCreates(socket)).toBe(2)
		})

		test('truncating the reply the over-limit response made, or deleting an item that does not exist, leaves response.create refused', async () => {
			const { client, socket, reply } = await sessionOverTheLimit('audio')
			// The reply was not part of the input that response measured: cutting its audio removes nothing from it.
			client.send({ type: 'conversation.item.truncate', item_id: reply.id, content_index: 0, audio_end_ms: 0 })
			await client.next('conversation.item.truncated')
			await expectRefused(client, socket)
			client.send({ type: 'conversation.item.delete', item_id: 'item_not_in_the_conversation' })
			expect((await client.next('error')).error.code).toBe('item_not_found')
			await expectRefused(client, socket)
			client.socket.close()
		})

		test('a response the upstream starts by server VAD while the conversation is over max_input_tokens is cancelled with a context_length_exceeded error event, and billed by the usage it reports', async () => {
			const { client, socket } = await sessionOverTheLimit()
			client.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: { type: 'server_vad', create_response: true } } } } })
			await client.next('session.updated')
			client.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(1_000, 3).toString('base64') })
			const created = await client.next('response.created')
			const refused = await client.next('error')
			expect(refused.error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded' })
			const done = await client.next('response.done')
			client.socket.close()
			expect(done.response).toMatchObject({ id: created.response.id, status: 'cancelled' })
			expect(socket.received.map((text) => JSON.parse(text)).filter((event) => event.type === 'response.cancel')).toEqual([{ type: 'response.cancel', response_id: created.response.id }])
			const usage = done.response.usage
			const [entry] = await logs()
			expect(entry).toMatchObject({ type: LOG_TYPE.consume, model_name: LIMITED_MODEL, prompt_tokens: usage.input_tokens, completion_tokens: 0, quota: quotaOf(usage) })
			expect(await holdsOf("'pending'")).toEqual([])
		})

		test('a session with no event for SessionIdleSeconds is ended with an error event', async () => {
			await harness.ferry.dependencies.options.set('SessionIdleSeconds', '1')
			try {
				const client = tlsClient(`${wsUrl}/v1/realtime?model=${MODEL}`, ['realtime', `openai-insecure-api-key.${key}`])
				await client.next('session.created')
				const error = await client.next('error')
				expect(error.error.code).toBe('session_idle')
				expect((await client.closed()).code).toBe(1000)
			} finally {
				await harness.ferry.dependencies.options.set('SessionIdleSeconds', '300')
			}
		})
	})
}

describe('a Realtime conversation\'s size between two measures', () => {
	const usage = (input: number, audioIn: number, text: number, audioOut: number) => ({
		input_tokens: input, output_tokens: text + audioOut,
		input_token_details: { audio_tokens: audioIn }, output_token_details: { text_tokens: text, audio_tokens: audioOut },
	})

	test('truncating a measured audio reply halfway removes its transcript and half its audio; deleting it then removes the rest', () => {
		const conversation = new RealtimeConversation()
		conversation.upstreamEvent({ type: 'session.created', session: { audio: { output: { format: { type: 'audio/pcm', rate: 24_000 } } } } })
		// One second of PCM16 at 24 kHz, in two deltas.
		for (let delta = 0; delta < 2; delta++) conversation.upstreamEvent({ type: 'response.output_audio.delta', item_id: 'item_reply', delta: Buffer.alloc(24_000).toString('base64') })
		conversation.upstreamEvent({ type: 'response.done', response: { output: [{ id: 'item_reply', type: 'message', content: [{ type: 'output_audio', transcript: 'Hello there.' }] }], usage: usage(30, 0, 10, 50) } })
		conversation.upstreamEvent({ type: 'conversation.item.added', item: { id: 'item_user', type: 'message', content: [{ type: 'input_text', text: 'More.' }] } })
		conversation.upstreamEvent({ type: 'response.done', response: { output: [], usage: usage(100, 50, 0, 0) } })
		expect(conversation.inputTokens).toBe(100)
		conversation.upstreamEvent({ type: 'conversation.item.truncated', item_id: 'item_reply', content_index: 0, audio_end_ms: 500 })
		expect(conversation.inputTokens).toBe(100 - 10 - 25)
		conversation.upstreamEvent({ type: 'conversation.item.deleted', item_id: 'item_reply' })
		expect(conversation.inputTokens).toBe(100 - 10 - 50)
		// Confirmed twice, removed once.
		conversation.upstreamEvent({ type: 'conversation.item.deleted', item_id: 'item_reply' })
		expect(conversation.inputTokens).toBe(40)
	})

	test('the client\'s committed audio shares the measure\'s input audio tokens by its bytes, and an item added after the measure removes nothing from it', () => {
		const conversation = new RealtimeConversation()
		conversation.clientEvent({ type: 'input_audio_buffer.append', audio: Buffer.alloc(9_600).toString('base64') })
		conversation.upstreamEvent({ type: 'input_audio_buffer.committed', item_id: 'item_long' })
		conversation.clientEvent({ type: 'input_audio_buffer.append', audio: Buffer.alloc(4_800).toString('base64') })
		conversation.upstreamEvent({ type: 'input_audio_buffer.committed', item_id: 'item_short' })
		conversation.upstreamEvent({ type: 'response.done', response: { output: [], usage: usage(200, 90, 0, 0) } })
		conversation.upstreamEvent({ type: 'conversation.item.deleted', item_id: 'item_short' })
		expect(conversation.inputTokens).toBe(170)
		conversation.upstreamEvent({ type: 'conversation.item.added', item: { id: 'item_late', type: 'message', content: [{ type: 'input_text', text: 'x'.repeat(300) }] } })
		conversation.upstreamEvent({ type: 'conversation.item.deleted', item_id: 'item_late' })
		expect(conversation.inputTokens).toBe(170)
		conversation.upstreamEvent({ type: 'conversation.item.deleted', item_id: 'item_long' })
		expect(conversation.inputTokens).toBe(110)
	})
})
