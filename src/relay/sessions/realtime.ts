/**
 * The Realtime API over WebSocket (`GET /v1/realtime?model=…`, upgraded): checked before the upgrade
 * (admission.ts), then relayed both ways to a socket on an OpenAI or Azure channel's key, picked by
 * the router and pinned by the session's affinity (upstream-route.ts). Events pass as their text,
 * unchanged — audio is never decoded — and an event type Ferry does not know passes too.
 *
 * Billing reads the upstream's events: `response.created` takes the response's hold (admit, price,
 * hold: response-calls.ts; the prompt estimated by the last response's input) before the client sees
 * it, and `response.done` settles it by its `usage` (formats/realtime/usage.ts: text and audio tokens at
 * their ratios, cached input at `CacheRatio`) before the client sees it. A wallet that cannot cover a
 * response's hold ends the session with an `error` event in OpenAI's shape. A session that ends while a
 * response is open — either side closing, a limit reached — voids that response's hold: what was
 * reported is settled, the rest voided.
 *
 * The channel's `max_input_tokens`: a response's prompt is the conversation upstream, which Ferry
 * measures by what each `response.done` reports, less what the upstream confirms deleted or truncated
 * since (realtime-conversation.ts). While that is over the limit, a client's `response.create` is not
 * sent (an `error` event `context_length_exceeded`, nothing held, the session stays open), and a
 * response the upstream starts itself (server VAD's turn detection) is cancelled (`response.cancel`,
 * the same error event; billed by the usage the upstream reports for it).
 */
import type { Server } from 'bun'
import type { Dependencies } from '@/dependencies'
import { newRequestId } from '@/lib/crypto'
import { openAIErrorResponse, RelayError, relayErrors, relayFailure } from '../errors'
import { isObject } from '../formats/json'
import { REALTIME_EVENTS, usageFromRealtime } from '../formats/realtime/usage'
import { readSessionKey } from '../router/session-key'
import type { RelayServices } from '../services'
import { admitSession, isUpgrade, offeredProtocols, sessionGroup, upgradeKey, wireHeaders } from './admission'
import { ClientSocket, SOCKET_CLOSE } from './client-socket'
import { answeredBy, holdResponse, type OpenResponse, realtimeRequest, type SessionParty } from './response-calls'
import { RealtimeConversation } from './realtime-conversation'
import { connectSocket, type SocketConnection } from './upstream-route'

type Json = Record<string, any>

const REALTIME_PROTOCOL = 'realtime'

/** The refusal of a response while the conversation is over the channel's `max_input_tokens`. */
const conversationTooLong = ({ tokens, limit }: { tokens: number; limit: number }) => new RelayError(
	400,
	`the conversation has about ${tokens} input tokens (as its last response reported them, less the items deleted since), more than the channel serving this session accepts (at most ${limit}); delete items (conversation.item.delete) before the next response`,
	'invalid_request_error', 'context_length_exceeded',
)

/** The Realtime API's error event. */
export function realtimeErrorEvent(error: RelayError): Json {
	return { type: 'error', event_id: `event_${newRequestId()}`, error: { type: error.type, code: error.code, message: error.message, param: null, event_id: null } }
}

export function sessionLimits(dependencies: Dependencies) {
	const { options, config } = dependencies
	return { maxFrameBytes: config.maxBodyBytes, idleMs: options.get('SessionIdleSeconds') * 1000, maxMs: options.get('SessionMaxMinutes') * 60_000 }
}

/** Answers the upgrade's refusal, or undefined once the socket is upgraded. */
export async function openRealtimeSession(dependencies: Dependencies, relay: RelayServices, request: Request, server: Server<unknown>, clientAddress: string): Promise<Response | undefined> {
	let release: (() => void) | undefined
	let connection: SocketConnection | undefined
	let client: ClientSocket | undefined
	try {
		const caller = await relay.authenticate(upgradeKey(request), clientAddress)
		if (!isUpgrade(request)) throw new RelayError(426, 'the Realtime API is a WebSocket: upgrade the connection', 'invalid_request_error', 'upgrade_required')
		const url = new URL(request.url)
		const model = url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? ''
		if (!model) throw relayErrors.badRequest('model: name the model in the query (?model=…)')
		await relay.routing.ready()
		const { group, acceptance } = sessionGroup(dependencies, relay, caller, model, 'realtime')
		release = await admitSession(relay, caller)

		const open = new Map<string, OpenResponse>()
		let lastInputTokens = 0
		const conversation = new RealtimeConversation()
		/** The conversation's size and the channel's limit when it is over it; the limit as it is now (settings change while a session lasts). */
		const overLimit = () => {
			const { channel } = connection!.key.target
			const limit = (relay.routing.channel(channel.id) ?? channel).maxInputTokens
			const tokens = conversation.inputTokens
			return limit > 0 && tokens > limit ? { tokens, limit } : undefined
		}
		let maxOutputTokens: unknown
		const voidOpen = async (reason: string) => {
			const responses = [...open.values()]
			open.clear()
			for (const response of responses) await response.void(reason)
		}
		const party: SessionParty = { caller, clientAddress, get signal() { return client!.signal } }

		/** One upstream event: billed as it passes, then handed to the client as it came. */
		const upstreamEvent = async (text: string) => {
			let event: Json | undefined
			try {
				const parsed = JSON.parse(text)
				event = isObject(parsed) ? parsed : undefined
			} catch {
				// Not JSON: passed on for the client to judge; nothing in it is billed.
			}
			const responseId = event?.response?.id
			if (event?.type === REALTIME_EVENTS.responseCreated && typeof responseId === 'string' && !open.has(responseId)) {
				try {
					const response = await holdResponse(dependencies, relay, party, realtimeRequest(model, maxOutputTokens), 'realtime', { promptEstimate: lastInputTokens })
					answeredBy(response, connection!.key)
					open.set(responseId, response)
				} catch (error) {
					// The wallet cannot cover the response (or the model is no longer served): the session ends.
					connection?.socket.send(JSON.stringify({ type: 'response.cancel', response_id: responseId }))
					client!.fail(error instanceof RelayError ? error : relayErrors.internal(), SOCKET_CLOSE.policy)
					return
				}
				const over = overLimit()
				if (over) {
					// Started by the upstream itself (a client's create is not sent meanwhile): cut short, billed by what it reports.
					connection?.socket.send(JSON.stringify({ type: 'response.cancel', response_id: responseId }))
					client!.send(text)
					client!.sendError(conversationTooLong(over))
					return
				}
			}
			if (event) conversation.upstreamEvent(event)
			if (event?.type === REALTIME_EVENTS.responseDone && typeof responseId === 'string') {
				const response = open.get(responseId)
				open.delete(responseId)
				const usage = usageFromRealtime(event.response?.usage)
				if (usage) lastInputTokens = usage.promptTokens
				if (response) {
					// Settled before the client sees the response end, as a stream is.
					if (usage && usage.promptTokens + usage.completionTokens > 0) await response.settle(usage).catch((error) => dependencies.logger.error('settling a realtime response failed', { error: String(error) }))
					else await response.void('no_usage')
				}
			}
			client!.send(text)
		}

		const session = client = new ClientSocket(sessionLimits(dependencies), realtimeErrorEvent, {
			async message(text, event) {
				const over = event.type === REALTIME_EVENTS.responseCreate ? overLimit() : undefined
				if (over) {
					client!.sendError(conversationTooLong(over))
					return
				}
				conversation.clientEvent(event)
				if (event.type === REALTIME_EVENTS.responseCreate && isObject(event.response)) maxOutputTokens = event.response.max_output_tokens ?? event.response.max_response_output_tokens
				// Every client event goes as it came, its type known or not.
				if (!connection?.socket.send(text)) session.close(SOCKET_CLOSE.internal, 'the upstream session is closed')
			},
			ended() {
				connection?.socket.close()
				void voidOpen('session_closed')
				release?.()
			},
		})

		const rules = dependencies.options.get('AffinityRules')
		const sessionKey = caller.pinnedChannelId === undefined && dependencies.options.get('AffinityEnabled')
			? readSessionKey({ userId: caller.user.id, model, path: url.pathname, headers: request.headers, body: {} }, rules, dependencies.options.get('AffinityDefaultSourcesEnabled'))
			: undefined
		connection = await connectSocket(dependencies, relay, { caller, group, model, acceptance }, 'realtime', {
			session: sessionKey,
			headers: wireHeaders(request),
			handlers: {
				message: upstreamEvent,
				closed(code, reason) {
					// What the upstream reported is settled; a response it never finished is voided.
					void voidOpen('upstream_closed').then(() => session.close(code === 1000 ? SOCKET_CLOSE.normal : SOCKET_CLOSE.internal, reason || 'the upstream closed the session'))
				},
			},
		})
		const protocol = offeredProtocols(request).includes(REALTIME_PROTOCOL) ? { 'sec-websocket-protocol': REALTIME_PROTOCOL } : undefined
		if (!server.upgrade(request, { data: session.upgradeData(), headers: protocol })) {
			session.close()
			throw new RelayError(400, 'expected a WebSocket upgrade', 'invalid_request_error', 'upgrade_required')
		}
		return undefined
	} catch (error) {
		// Before the upgrade nothing reached the client: whatever was opened for it ends here.
		if (client) client.close()
		else release?.()
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}
