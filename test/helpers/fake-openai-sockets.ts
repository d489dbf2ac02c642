/**
 * The WebSocket side of the fake OpenAI upstream (fake-openai.ts): the Realtime API
 * (`/v1/realtime?model=…`, Azure's `/openai/v1/realtime`) and the Responses API's WebSocket mode
 * (`/v1/responses`), as documented:
 *
 * - Realtime: `session.created` on connect; `session.update` → `session.updated`;
 *   `conversation.item.create` → `conversation.item.added` and `.done`; `input_audio_buffer.append`
 *   gathers audio, `input_audio_buffer.commit` → `.committed`; `response.create` → `response.created`,
 *   the output item, text deltas (and audio deltas when audio is asked for), `response.done` with the
 *   usage: input text tokens ceil(characters / 4), input audio tokens one per 100 audio bytes, cached
 *   tokens as configured, output text tokens the pieces, output audio tokens 20 a response with audio.
 *   `conversation.item.delete` → `conversation.item.deleted`, the item out of the conversation (and
 *   of the next response's input); `conversation.item.truncate` → `conversation.item.truncated`, the
 *   item's text (its transcript) out of the next response's input. With server VAD turned on by `session.update` (`turn_detection`
 *   of type `server_vad`, in the session or its `audio.input`), each `input_audio_buffer.append` is
 *   a whole utterance: speech started and stopped, the buffer committed, and a response started by
 *   the server, which streams after VAD_RESPONSE_WAIT_MS unless `response.cancel` comes first (then
 *   `response.done` `cancelled`, its usage the input and no output). `response.cancel` with no
 *   response waiting → `response.done` with status `cancelled`. An event type it does not know is
 *   answered with an `error` event, as the API does. Instructions containing `[fake-fault:drop]` make
 *   it close the socket after `response.created` and one delta, without `response.done`.
 * - Responses: each `response.create` is answered with the HTTP stream's events, one message each
 *   (fake-openai-responses.ts); `previous_response_id` must name a response made on this socket or
 *   stored, else an `error` event `previous_response_not_found`.
 *
 * The key comes as `Authorization: Bearer`, the browser subprotocol `openai-insecure-api-key.<key>`, or
 * Azure's `api-key`. Every socket and every event it received is recorded.
 */
import type { Server, ServerWebSocket } from 'bun'
import { answerResponse, inputText, type ResponsesSettings } from './fake-openai-responses'

type Json = Record<string, any>

export interface RecordedSocket {
	kind: 'realtime' | 'responses'
	path: string
	search: string
	/** Lower-case names. */
	headers: Record<string, string>
	/** The key it was opened with, however it came. */
	key: string
	/** Each client event as it arrived (text), in order. */
	received: string[]
	closed: boolean
}

export interface SocketSettings extends ResponsesSettings {
	apiKey?: string
	/** Cached input tokens each realtime response reports. */
	realtimeCachedTokens?: number
}

interface SocketData {
	socket: RecordedSocket
	/** Realtime: the conversation's text items and the audio bytes appended so far. */
	items: { id: string; text: string }[]
	audioBytes: number
	/** Realtime: whether server VAD starts a response for each utterance. */
	vad: boolean
	/** Realtime: a response the server started, waiting before it streams. */
	waiting?: { id: string; base: Json; cancel(): void }
	/** Responses: ids made on this socket. */
	responses: Set<string>
}

const AUDIO_BYTES_PER_TOKEN = 100
const OUTPUT_AUDIO_TOKENS = 20
/** How long a response started by server VAD waits for a `response.cancel` before it streams. */
const VAD_RESPONSE_WAIT_MS = 3000
const BROWSER_KEY_PROTOCOL = 'openai-insecure-api-key.'

let sequence = 0
const nextId = (prefix: string) => `${prefix}_fake${++sequence}`

function keyOf(request: Request): { key: string; protocol?: string } {
	const bearer = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '')
	if (bearer) return { key: bearer }
	const azure = request.headers.get('api-key')
	if (azure) return { key: azure }
	const protocols = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((protocol) => protocol.trim())
	const browser = protocols.find((protocol) => protocol.startsWith(BROWSER_KEY_PROTOCOL))
	return { key: browser?.slice(BROWSER_KEY_PROTOCOL.length) ?? '', protocol: protocols.includes('realtime') ? 'realtime' : undefined }
}

export function createFakeSockets(settings: () => SocketSettings, storedResponses: Set<string>) {
	const sockets: RecordedSocket[] = []

	/** Answers an upgrade on a socket path (or undefined for another path); 401 for a wrong key. */
	function upgrade(request: Request, server: Server<SocketData>): Response | undefined | 'upgraded' {
		const url = new URL(request.url)
		const path = url.pathname.replace(/^\/openai(?=\/v1\/)/, '')
		const kind = path === '/v1/realtime' ? 'realtime' : path === '/v1/responses' && request.method === 'GET' ? 'responses' : undefined
		if (!kind || request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return undefined
		const { key, protocol } = keyOf(request)
		const expected = settings().apiKey
		if (expected !== undefined && key !== expected) return Response.json({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, { status: 401 })
		const socket: RecordedSocket = { kind, path: url.pathname, search: url.search, headers: Object.fromEntries(request.headers), key, received: [], closed: false }
		sockets.push(socket)
		const upgraded = server.upgrade(request, { data: { socket, items: [], audioBytes: 0, vad: false, responses: new Set() }, headers: protocol ? { 'sec-websocket-protocol': protocol } : undefined })
		return upgraded ? 'upgraded' : new Response('expected a WebSocket upgrade', { status: 400 })
	}

	const send = (ws: ServerWebSocket<SocketData>, event: Json) => ws.send(JSON.stringify({ event_id: nextId('event'), ...event }))

	function realtimeError(ws: ServerWebSocket<SocketData>, message: string, code: string, eventId?: string) {
		send(ws, { type: 'error', error: { type: 'invalid_request_error', code, message, param: null, event_id: eventId ?? null } })
	}

	/** The input of a response: the conversation's text and audio. */
	function inputUsage(data: SocketData) {
		const textTokens = Math.max(1, Math.ceil(data.items.map((item) => item.text).join('\n').length / 4))
		const audioTokens = Math.ceil(data.audioBytes / AUDIO_BYTES_PER_TOKEN)
		const cached = Math.min(settings().realtimeCachedTokens ?? 0, textTokens)
		return { textTokens, audioTokens, input: textTokens + audioTokens, cached }
	}

	/** A response: created now, streamed now or, when `waitMs` is given, after it unless cancelled first. */
	function realtimeResponse(ws: ServerWebSocket<SocketData>, event: Json, model: string, waitMs?: number) {
		const options = event.response ?? {}
		const id = nextId('resp')
		const audio = (options.output_modalities ?? options.modalities ?? ['text']).includes('audio')
		const base = { object: 'realtime.response', id, status: 'in_progress', output: [], conversation_id: 'conv_fake', output_modalities: audio ? ['audio'] : ['text'], usage: null }
		send(ws, { type: 'response.created', response: base })
		if (waitMs === undefined) return streamResponse(ws, options, model, id, base, audio)
		const timer = setTimeout(() => {
			ws.data.waiting = undefined
			if (!ws.data.socket.closed) streamResponse(ws, options, model, id, base, audio)
		}, waitMs)
		ws.data.waiting = { id, base, cancel: () => clearTimeout(timer) }
	}

	function streamResponse(ws: ServerWebSocket<SocketData>, options: Json, model: string, id: string, base: Json, audio: boolean) {
		const data = ws.data
		const itemId = nextId('item')
		const pieces = settings().replyText.match(/\s*\S+/g) ?? [settings().replyText]
		send(ws, { type: 'response.output_item.added', response_id: id, output_index: 0, item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] } })
		const delta = audio ? 'response.output_audio_transcript.delta' : 'response.output_text.delta'
		for (const [index, piece] of pieces.entries()) {
			send(ws, { type: delta, response_id: id, item_id: itemId, output_index: 0, content_index: 0, delta: piece })
			if (audio) send(ws, { type: 'response.output_audio.delta', response_id: id, item_id: itemId, output_index: 0, content_index: 0, delta: Buffer.alloc(64, index).toString('base64') })
			if (index === 0 && String(options.instructions ?? '').includes('[fake-fault:drop]')) {
				ws.close(1011, 'upstream dropped the session')
				return
			}
		}
		const text = pieces.join('')
		const item = { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [{ type: audio ? 'output_audio' : 'output_text', [audio ? 'transcript' : 'text']: text }] }
		send(ws, { type: 'response.output_item.done', response_id: id, output_index: 0, item })
		const { textTokens, audioTokens, input, cached } = inputUsage(data)
		const output = pieces.length + (audio ? OUTPUT_AUDIO_TOKENS : 0)
		const usage = {
			total_tokens: input + output, input_tokens: input, output_tokens: output,
			input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens, image_tokens: 0, cached_tokens: cached, cached_tokens_details: { text_tokens: cached, audio_tokens: 0, image_tokens: 0 } },
			output_token_details: { text_tokens: pieces.length, audio_tokens: audio ? OUTPUT_AUDIO_TOKENS : 0 },
		}
		data.items.push({ id: itemId, text })
		send(ws, { type: 'response.done', response: { ...base, status: 'completed', output: [item], usage, model } })
	}

	function onRealtime(ws: ServerWebSocket<SocketData>, event: Json): unknown {
		const model = new URLSearchParams(ws.data.socket.search).get('model') ?? ''
		switch (event.type) {
			case 'session.update': {
				const turnDetection = event.session?.turn_detection ?? event.session?.audio?.input?.turn_detection
				if (turnDetection !== undefined) ws.data.vad = turnDetection?.type === 'server_vad' && turnDetection.create_response !== false
				return send(ws, { type: 'session.updated', session: { ...event.session, id: 'sess_fake', model } })
			}
			case 'conversation.item.create': {
				const item = { id: nextId('item'), ...event.item }
				const texts = (item.content ?? []).map((part: Json) => part.text).filter((text: unknown) => typeof text === 'string')
				if (texts.length > 0) ws.data.items.push({ id: item.id, text: texts.join('\n') })
				send(ws, { type: 'conversation.item.added', previous_item_id: null, item })
				return send(ws, { type: 'conversation.item.done', previous_item_id: null, item })
			}
			case 'conversation.item.delete': {
				const index = ws.data.items.findIndex((item) => item.id === event.item_id)
				if (index < 0) return realtimeError(ws, `Item with item_id '${String(event.item_id)}' not found.`, 'item_not_found', event.event_id)
				ws.data.items.splice(index, 1)
				return send(ws, { type: 'conversation.item.deleted', item_id: event.item_id })
			}
			case 'conversation.item.truncate': {
				const item = ws.data.items.find((candidate) => candidate.id === event.item_id)
				if (!item) return realtimeError(ws, `Item with item_id '${String(event.item_id)}' not found.`, 'item_not_found', event.event_id)
				// The transcript goes with the audio cut off.
				item.text = ''
				return send(ws, { type: 'conversation.item.truncated', item_id: event.item_id, content_index: event.content_index ?? 0, audio_end_ms: event.audio_end_ms ?? 0 })
			}
			case 'input_audio_buffer.append': {
				ws.data.audioBytes += Buffer.from(String(event.audio ?? ''), 'base64').length
				if (!ws.data.vad) return
				const itemId = nextId('item')
				send(ws, { type: 'input_audio_buffer.speech_started', audio_start_ms: 0, item_id: itemId })
				send(ws, { type: 'input_audio_buffer.speech_stopped', audio_end_ms: 1000, item_id: itemId })
				send(ws, { type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId })
				return realtimeResponse(ws, { response: { output_modalities: ['text'] } }, model, VAD_RESPONSE_WAIT_MS)
			}
			case 'input_audio_buffer.commit':
				return send(ws, { type: 'input_audio_buffer.committed', previous_item_id: null, item_id: nextId('item') })
			case 'response.create':
				return realtimeResponse(ws, event, model)
			case 'response.cancel': {
				const waiting = ws.data.waiting
				if (!waiting) return send(ws, { type: 'response.done', response: { object: 'realtime.response', id: nextId('resp'), status: 'cancelled', output: [], usage: null } })
				waiting.cancel()
				ws.data.waiting = undefined
				const { textTokens, audioTokens, input, cached } = inputUsage(ws.data)
				const usage = {
					total_tokens: input, input_tokens: input, output_tokens: 0,
					input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens, image_tokens: 0, cached_tokens: cached, cached_tokens_details: { text_tokens: cached, audio_tokens: 0, image_tokens: 0 } },
					output_token_details: { text_tokens: 0, audio_tokens: 0 },
				}
				return send(ws, { type: 'response.done', response: { ...waiting.base, status: 'cancelled', status_details: { type: 'cancelled', reason: 'client_cancelled' }, usage } })
			}
			default:
				return realtimeError(ws, `Invalid value: '${String(event.type)}'. Supported values are: 'session.update', 'input_audio_buffer.append', 'response.create', …`, 'invalid_value', event.event_id)
		}
	}

	function onResponses(ws: ServerWebSocket<SocketData>, event: Json): unknown {
		if (event.type !== 'response.create') {
			return ws.send(JSON.stringify({ type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'invalid_value', message: `Invalid value: '${String(event.type)}'.`, param: 'type' } }))
		}
		const { type: _, ...body } = event
		const previous = body.previous_response_id
		if (typeof previous === 'string' && !ws.data.responses.has(previous) && !storedResponses.has(previous)) {
			return ws.send(JSON.stringify({ type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: `Previous response with id '${previous}' not found.`, param: 'previous_response_id' } }))
		}
		const id = nextId('resp')
		ws.data.responses.add(id)
		if (body.store !== false) storedResponses.add(id)
		const { events } = answerResponse(id, body, body.generate === false ? { ...settings(), replyText: '', completionTokens: 0 } : settings())
		for (const answerEvent of events) ws.send(JSON.stringify(answerEvent))
	}

	const websocket = {
		open(ws: ServerWebSocket<SocketData>) {
			if (ws.data.socket.kind !== 'realtime') return
			const model = new URLSearchParams(ws.data.socket.search).get('model') ?? ''
			send(ws, { type: 'session.created', session: { id: 'sess_fake', object: 'realtime.session', type: 'realtime', model, output_modalities: ['audio'], instructions: '' } })
		},
		message(ws: ServerWebSocket<SocketData>, message: string | Buffer) {
			const text = typeof message === 'string' ? message : message.toString('utf8')
			ws.data.socket.received.push(text)
			let event: Json
			try {
				event = JSON.parse(text)
			} catch {
				send(ws, { type: 'error', error: { type: 'invalid_request_error', code: 'invalid_json', message: 'The server could not parse the event as JSON.', param: null, event_id: null } })
				return
			}
			if (ws.data.socket.kind === 'realtime') onRealtime(ws, event)
			else onResponses(ws, event)
		},
		close(ws: ServerWebSocket<SocketData>) {
			ws.data.socket.closed = true
			ws.data.waiting?.cancel()
		},
	}

	return { sockets, upgrade, websocket, inputText }
}
