/**
 * The Responses API's WebSocket mode (`GET /v1/responses`, upgraded): the client sends
 * `response.create` events (a create body without `stream`), one response at a time, and gets each
 * response's events on the same socket. Each `response.create` is one call, billed as an HTTP
 * response is.
 *
 * - **Native** (a model an OpenAI or Azure channel serves): the session keeps one upstream socket per
 *   key it uses (upstream-route.ts: router and affinity), so that a response continued with
 *   `previous_response_id` goes to the socket that made it (the upstream keeps a socket's last
 *   response in memory, even with `store: false`), or to the channel that keeps it. Each create is
 *   admitted, priced and held (response-calls.ts), sent as the client wrote it (the model mapped),
 *   and settled by the usage of its terminal event (`response.completed`, `.incomplete`, `.failed`) or
 *   voided (`error`, a socket lost). Channels' `max_input_tokens` apply as over HTTP (prompt fit,
 *   before the hold): a create whose prompt is over the limit of the socket in use goes to a socket
 *   on a channel it fits; one continuing a response a socket or channel keeps is refused
 *   (`context_length_exceeded`) when that channel's limit is below it. Other client events
 *   (`response.steer`, types added later) pass to the socket in use as they came.
 * - **Bridged** (a model only chat channels serve): each create runs as an HTTP Responses call would
 *   (stages/index.ts relayCall, the bridge to chat, prompt fit included), its stream's events sent
 *   as messages. Ferry keeps the socket's last response here (its input and output, within
 *   `MAX_BODY_MB`), so that a `previous_response_id` naming it continues it as the upstream's memory
 *   would; any other is `previous_response_not_found`.
 *
 * A refused create (no quota, a model not allowed…) answers an `error` event (`status` and `error`,
 * as the API's WebSocket mode does) and the session stays open.
 */
import type { Server } from 'bun'
import type { Dependencies } from '@/dependencies'
import { keptResponsePlace, rememberResponse } from '@/db/stores/kept-responses'
import { newRequestId } from '@/lib/crypto'
import { nowSeconds } from '@/lib/clock'
import type { KeyTarget } from '@/lib/session-affinity'
import { asRelayError, openAIErrorResponse, RelayError, relayErrors, relayFailure } from '../errors'
import { isObject } from '../formats/json'
import { responseIdentity } from '../formats/responses/answer'
import { canonicalRequestFromResponses, responsesClientFormat } from '../formats/responses/client'
import { responsesWire } from '../formats/responses/wire'
import { dataOf } from '../formats/sse'
import type { RelayCaller } from '../caller'
import { readSessionKey } from '../router/session-key'
import type { RelayServices } from '../services'
import { relayCall } from '../stages'
import type { PricedCall } from '../stages/call'
import { fitPrompt } from '../stages/prompt-fit'
import { keyTargetOf } from '../stages/route'
import { admitSession, isUpgrade, sessionGroup, socketAcceptance, upgradeKey, wireHeaders } from './admission'
import { ClientSocket, SOCKET_CLOSE } from './client-socket'
import { answeredBy, holdResponse, type OpenResponse, type SessionParty } from './response-calls'
import { sessionLimits } from './realtime'
import { connectSocket, type SocketConnection } from './upstream-route'

type Json = Record<string, any>

const CREATE = 'response.create'

/** A failure as the client may see it: a RelayError as it is, anything else as an internal error. */
function refusal(error: unknown): RelayError {
	const relayError = asRelayError(error)
	return relayError instanceof RelayError ? relayError : relayErrors.internal()
}

/** The Responses API's WebSocket error event. */
export function responsesErrorEvent(error: RelayError): Json {
	return { type: 'error', status: error.status, error: { type: error.type, code: error.code, message: error.message, param: null } }
}

/** One response on its way on a native socket: its bill, the reader of its events, and its end. */
interface InFlight {
	response: OpenResponse
	inspector: ReturnType<typeof responsesWire.stream>
	store: boolean
	done(): void
}

/** A native socket of the session: the key it is on, the responses it made, the response it carries. */
interface NativeSocket {
	connection: SocketConnection
	made: Set<string>
	inFlight?: InFlight
}

const keyOf = (target: KeyTarget) => `${target.channelId}:${target.keyIndex}`

/** Input items of a create body: text becomes one user message. */
function inputItems(input: unknown): unknown[] {
	if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }]
	return Array.isArray(input) ? input : []
}

class ResponsesSession {
	readonly sockets = new Map<string, NativeSocket>()
	/** The socket the last native response went to. */
	private current: NativeSocket | undefined
	/** The last bridged response: its id, and the conversation it ends. */
	private context: { id: string; items: unknown[] } | undefined
	private creates: Promise<void> = Promise.resolve()
	client!: ClientSocket

	constructor(private readonly dependencies: Dependencies, private readonly relay: RelayServices, private readonly caller: RelayCaller, private readonly request: Request, private readonly clientAddress: string) {}

	private get party(): SessionParty {
		return { caller: this.caller, clientAddress: this.clientAddress, signal: this.client.signal }
	}

	/** A client event: a create waits for the response before it (one at a time); any other passes to the socket in use. */
	async message(text: string, event: Json) {
		if (event.type !== CREATE) {
			if (this.current?.connection.socket.send(text)) return
			this.client.sendError(relayErrors.badRequest(`the event type ${String(event.type).slice(0, 64)} needs a response on a channel that speaks the Responses API; send response.create first`))
			return
		}
		this.creates = this.creates.then(() => this.create(text, event)).catch((error) => this.client.sendError(refusal(error)))
	}

	private async create(text: string, event: Json) {
		if (!this.client.open) return
		const { type: _, ...body } = event
		const model = body.model
		if (typeof model !== 'string' || !model) return this.client.sendError(relayErrors.badRequest('model: Field required'))
		let native: { group: string; acceptance: ReturnType<typeof sessionGroup>['acceptance'] } | undefined
		try {
			native = sessionGroup(this.dependencies, this.relay, this.caller, model, 'responses')
		} catch (error) {
			if (!(error instanceof RelayError) || error.code !== 'endpoint_not_supported') return this.client.sendError(refusal(error))
		}
		if (native) await this.createNative(text, body, model)
		else await this.createBridged(body, model)
	}

	/**
	 * The socket that made (or whose channel keeps) the response continued — the response is `bound`
	 * to that channel — else the one in use.
	 */
	private async preferredKey(previous: unknown): Promise<{ socket?: NativeSocket; key?: KeyTarget; bound?: true }> {
		if (typeof previous === 'string' && previous) {
			for (const socket of this.sockets.values()) if (socket.made.has(previous)) return { socket, key: keyTargetOf(socket.connection.key.target), bound: true }
			const kept = await keptResponsePlace(this.dependencies.store, previous, this.caller.user.id)
			if (kept) return { socket: this.sockets.get(keyOf(kept)), key: kept, bound: true }
		}
		const current = this.current
		return current ? { socket: current, key: keyTargetOf(current.connection.key.target) } : {}
	}

	/**
	 * The channels that may answer a native response: those that take a Responses socket, and whose
	 * `max_input_tokens` its prompt fits (stages/prompt-fit.ts). A response bound to a channel is
	 * refused when it does not fit there, not sent to another that could not continue it.
	 */
	private fit(call: PricedCall, bound: KeyTarget | undefined): Promise<PricedCall> {
		const { accepts, cacheKey } = call.acceptance
		const sockets = socketAcceptance('responses', call.model)
		call.acceptance = { accepts: (channel) => accepts(channel) && sockets.accepts(channel), cacheKey: `${cacheKey} ${sockets.cacheKey}` }
		return fitPrompt(this.relay, call, bound && this.relay.routing.channel(bound.channelId))
	}

	private async createNative(text: string, body: Json, model: string) {
		let response: OpenResponse
		let preferred: Awaited<ReturnType<ResponsesSession['preferredKey']>>
		try {
			preferred = await this.preferredKey(body.previous_response_id)
			const bound = preferred.bound ? preferred.key : undefined
			response = await holdResponse(this.dependencies, this.relay, this.party, canonicalRequestFromResponses({ ...body, stream: true }, text), 'responses-socket', { fit: (call) => this.fit(call, bound) })
		} catch (error) {
			return this.client.sendError(refusal(error))
		}
		const call = response.call
		let socket: NativeSocket
		try {
			const offered = preferred.socket && this.relay.routing.offered(call.group, model, preferred.socket.connection.key.target.channel.id, { accepts: call.acceptance.accepts, cacheKey: call.acceptance.cacheKey })
			socket = offered && preferred.socket ? preferred.socket : await this.open(call, preferred.key)
		} catch (error) {
			await response.void('upstream_failed')
			return this.client.sendError(refusal(error))
		}
		this.current = socket
		answeredBy(response, socket.connection.key)
		const { route, upstreamModel } = socket.connection
		const bodyModel = route.bodyModel?.(upstreamModel) ?? upstreamModel
		await new Promise<void>((resolve) => {
			socket.inFlight = { response, inspector: responsesWire.stream(), store: body.store !== false, done: resolve }
			const sent = bodyModel === model ? text : JSON.stringify({ type: CREATE, ...body, model: bodyModel })
			if (!socket.connection.socket.send(sent)) void this.lose(socket, 'upstream_closed')
		})
	}

	/** Opens a native socket for the call on a key the router picks (the preferred one first). */
	private async open(call: OpenResponse['call'], prefer: KeyTarget | undefined): Promise<NativeSocket> {
		const rules = this.dependencies.options.get('AffinityRules')
		const session = this.caller.pinnedChannelId === undefined && this.dependencies.options.get('AffinityEnabled')
			? readSessionKey({ userId: this.caller.user.id, model: call.model, path: '/v1/responses', headers: this.request.headers, body: call.request.native?.value ?? {} }, rules, this.dependencies.options.get('AffinityDefaultSourcesEnabled'))
			: undefined
		const holder: { socket?: NativeSocket } = {}
		const connection = await connectSocket(this.dependencies, this.relay, call, 'responses', {
			session, prefer, headers: wireHeaders(this.request),
			handlers: {
				message: (text) => this.upstreamEvent(holder.socket!, text),
				closed: () => void this.lose(holder.socket!, 'upstream_closed'),
			},
		})
		const socket: NativeSocket = { connection, made: new Set() }
		holder.socket = socket
		this.sockets.set(keyOf({ channelId: connection.key.target.channel.id, keyIndex: connection.key.target.keyIndex }), socket)
		return socket
	}

	/** One upstream event: read for billing (settled before the client sees the end), then passed on as it came. */
	private async upstreamEvent(socket: NativeSocket, text: string) {
		const flight = socket.inFlight
		let event: Json | undefined
		try {
			const parsed = JSON.parse(text)
			event = isObject(parsed) ? parsed : undefined
		} catch {
			// Not JSON: passed on as it came.
		}
		if (flight && event) {
			const responseId = event.response?.id
			if (event.type === 'response.created' && typeof responseId === 'string') {
				socket.made.add(responseId)
				if (flight.store) {
					const { target } = socket.connection.key
					await rememberResponse(this.dependencies.store, { responseId, userId: this.caller.user.id, channelId: target.channel.id, keyIndex: target.keyIndex })
						.catch((error) => this.dependencies.logger.error('remembering a kept response failed', { error: String(error) }))
				}
			}
			const reading = flight.inspector.inspect(event)
			if (reading.end) {
				socket.inFlight = undefined
				const usage = flight.inspector.usage()
				if (usage) await flight.response.settle(usage).catch((error) => this.dependencies.logger.error('settling a socket response failed', { error: String(error) }))
				else await flight.response.void(reading.end === 'completed' ? 'no_usage' : 'upstream_failed')
				this.client.send(text)
				flight.done()
				return
			}
		}
		this.client.send(text)
	}

	/** A socket lost: its response voided (and the client told), the socket forgotten. */
	private async lose(socket: NativeSocket | undefined, reason: string) {
		if (!socket) return
		for (const [key, known] of this.sockets) if (known === socket) this.sockets.delete(key)
		if (this.current === socket) this.current = undefined
		const flight = socket.inFlight
		socket.inFlight = undefined
		if (!flight) return
		await flight.response.void(reason)
		if (this.client.open) this.client.sendError(new RelayError(502, 'the upstream connection closed before the response completed', 'upstream_error', 'upstream_reset'))
		flight.done()
	}

	private async createBridged(body: Json, model: string) {
		const previous = body.previous_response_id
		let request: Json = body
		if (typeof previous === 'string' && previous) {
			if (this.context?.id !== previous) {
				return this.client.sendError(new RelayError(400, `Previous response with id '${previous}' not found. On a model bridged to chat only the socket's last response can be continued; send the whole conversation in input instead.`, 'invalid_request_error', 'previous_response_not_found'))
			}
			const { previous_response_id: _, ...rest } = body
			request = { ...rest, input: [...this.context.items, ...inputItems(body.input)] }
		}
		request = { ...request, stream: true }
		const text = JSON.stringify(request)
		const startedAt = performance.now()
		const metrics = this.relay.metrics.begin(startedAt)
		metrics.describe('responses-socket', model)
		const identity = responseIdentity(request, model, nowSeconds())
		try {
			const succeeded = await this.relay.requestLimits.admit(this.caller)
			const result = await relayCall(this.dependencies, this.relay, {
				requestId: newRequestId(), caller: this.caller, request: canonicalRequestFromResponses(request, text), signal: this.client.signal,
				clientAddress: this.clientAddress, startedAt, metrics,
			})
			succeeded?.()
			if (result.kind !== 'stream') throw relayErrors.internal()
			const completed = await this.pass(responsesClientFormat(identity, undefined).stream(result.events, result.wire, result.answeredBy))
			metrics.finish(completed ? 'success' : 'stream_failed')
			this.context = undefined
			if (completed) {
				const items = [...inputItems(request.input), ...(Array.isArray(completed.output) ? completed.output : [])]
				if (JSON.stringify(items).length <= this.dependencies.config.maxBodyBytes) this.context = { id: identity.id, items }
			}
		} catch (error) {
			metrics.finish('error')
			this.client.sendError(refusal(error))
		}
	}

	/** Sends a stream's SSE events as messages; answers the completed response, or undefined when it did not complete. */
	private async pass(stream: ReadableStream<Uint8Array>): Promise<Json | undefined> {
		const reader = stream.getReader()
		const decoder = new TextDecoder()
		let pending = ''
		let completed: Json | undefined
		try {
			for (;;) {
				const chunk = await reader.read()
				if (chunk.done) break
				pending += decoder.decode(chunk.value, { stream: true })
				const blocks = pending.split('\n\n')
				pending = blocks.pop() ?? ''
				for (const block of blocks) {
					const data = dataOf(block)
					if (!data) continue
					if (data.includes('"response.completed"')) completed = JSON.parse(data).response
					if (!this.client.send(data)) {
						await reader.cancel()
						return undefined
					}
				}
			}
		} finally {
			reader.releaseLock()
		}
		return completed
	}

	end() {
		for (const socket of [...this.sockets.values()]) {
			socket.connection.socket.close()
			void this.lose(socket, 'session_closed')
		}
	}
}

/** Answers the upgrade's refusal, or undefined once the socket is upgraded. */
export async function openResponsesSession(dependencies: Dependencies, relay: RelayServices, request: Request, server: Server<unknown>, clientAddress: string): Promise<Response | undefined> {
	let release: (() => void) | undefined
	try {
		const caller = await relay.authenticate(upgradeKey(request), clientAddress)
		if (!isUpgrade(request)) throw new RelayError(426, 'the Responses API\'s WebSocket mode needs the connection upgraded', 'invalid_request_error', 'upgrade_required')
		await relay.routing.ready()
		release = await admitSession(relay, caller)
		const session = new ResponsesSession(dependencies, relay, caller, request, clientAddress)
		const freed = release
		const client = new ClientSocket(sessionLimits(dependencies), responsesErrorEvent, {
			message: (text, event) => session.message(text, event),
			ended() {
				session.end()
				freed()
			},
		})
		session.client = client
		if (!server.upgrade(request, { data: client.upgradeData() })) {
			client.close()
			throw new RelayError(400, 'expected a WebSocket upgrade', 'invalid_request_error', 'upgrade_required')
		}
		return undefined
	} catch (error) {
		release?.()
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}

export { SOCKET_CLOSE }
