/**
 * The client's side of a long session: one upgraded WebSocket (Bun's, reached through the handlers
 * Elysia's websocket dispatches to, `ws.data.open/message/close/drain`). It checks every frame before
 * the relay sees it — text only, at most `MAX_BODY_MB`, a JSON object with a `type` — and answers a
 * frame that is not with an error event in the session's shape, then closes (1003, 1009, 1007). The
 * relay's work for each frame runs in order, one at a time, off the frame handler, so a frame never
 * holds the event loop for another connection. The session ends after `SessionIdleSeconds` without an
 * event either way, or `SessionMaxMinutes` in all, with an error event saying so. Events sent while
 * the client reads slowly queue in Bun; past `MAX_BUFFERED_BYTES` the session is closed rather than
 * let them pile up, and an event Bun had to drop ends it too (the client must not miss what is billed).
 */
import type { ServerWebSocket } from 'bun'
import { parseJsonText } from '@/lib/request-body'
import { RelayError, relayErrors } from '../errors'
import { isObject } from '../formats/json'

type Json = Record<string, unknown>

/** The session's error event for a refusal (Realtime's and the Responses API's differ). */
export type ErrorEventOf = (error: RelayError) => Json

export interface ClientSocketLimits {
	maxFrameBytes: number
	idleMs: number
	maxMs: number
}

export interface ClientSocketHandlers {
	/** A checked client event: its text as sent, and parsed. Runs after the previous one's work ended. */
	message(text: string, event: Json): Promise<void>
	/** The session ended, from either side: end the upstream, close what is held. Called once. */
	ended(): void
}

const CLOSE = { normal: 1000, goingAway: 1001, unsupported: 1003, invalidPayload: 1007, policy: 1008, tooBig: 1009, internal: 1011 } as const
export { CLOSE as SOCKET_CLOSE }

/** Events queued in Bun for a client that reads slowly, at most. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024
/** What Bun's `send` answers when it dropped the message. */
const DROPPED = 0

/** Bun's upgrade data: the handlers Elysia's websocket calls by name. */
export interface UpgradeData {
	open(ws: ServerWebSocket<UpgradeData>): void
	message(ws: ServerWebSocket<UpgradeData>, message: string | Buffer): void
	close(ws: ServerWebSocket<UpgradeData>, code: number, reason: string): void
	drain(ws: ServerWebSocket<UpgradeData>): void
}

export class ClientSocket {
	private ws: ServerWebSocket<UpgradeData> | undefined
	/** Sent before the client's socket opened (an upstream's first events): sent on open. */
	private early: string[] = []
	private ended = false
	private work: Promise<void> = Promise.resolve()
	private idleTimer: ReturnType<typeof setTimeout> | undefined
	private readonly maxTimer: ReturnType<typeof setTimeout>
	/** Aborts when the session ends: calls made for it stop. */
	readonly signal: AbortSignal
	private readonly abort = new AbortController()

	constructor(private readonly limits: ClientSocketLimits, private readonly errorEvent: ErrorEventOf, private readonly handlers: ClientSocketHandlers) {
		this.signal = this.abort.signal
		this.maxTimer = setTimeout(() => this.fail(new RelayError(400, `the session reached its limit of ${Math.round(limits.maxMs / 60_000)} minutes`, 'invalid_request_error', 'session_expired'), CLOSE.normal), limits.maxMs)
		this.touch()
	}

	/** What to hand Bun's `server.upgrade`. */
	upgradeData(): UpgradeData {
		return {
			open: (ws) => this.opened(ws),
			message: (_ws, message) => this.received(message),
			close: () => this.end(),
			drain: () => {},
		}
	}

	get open() {
		return !this.ended
	}

	/** Sends one event's text as it is; false when the session is over. */
	send(text: string): boolean {
		if (this.ended) return false
		this.touch()
		if (!this.ws) {
			this.early.push(text)
			return true
		}
		if (this.ws.send(text) === DROPPED || this.ws.getBufferedAmount() > MAX_BUFFERED_BYTES) {
			this.close(CLOSE.policy, 'the client reads too slowly')
			return false
		}
		return true
	}

	sendEvent(event: Json): boolean {
		return this.send(JSON.stringify(event))
	}

	/** Sends the error event for `error` (keeping the session). */
	sendError(error: RelayError) {
		this.sendEvent(this.errorEvent(error))
	}

	/** Sends the error event, then ends the session with `code`. */
	fail(error: RelayError, code: number = CLOSE.policy) {
		if (this.ended) return
		this.sendError(error)
		this.close(code, error.message.slice(0, 120))
	}

	close(code: number = CLOSE.normal, reason = '') {
		if (this.ended) return
		// A close reason may be at most 123 bytes.
		const trimmed = Buffer.from(reason).subarray(0, 123).toString()
		if (this.ws) this.ws.close(code, trimmed)
		this.end()
	}

	/** Runs `task` after every task queued before it (the client's events in order). */
	queue(task: () => Promise<void>) {
		this.work = this.work.then(task).catch((error) => this.fail(error instanceof RelayError ? error : relayErrors.upstreamUnavailable(), CLOSE.internal))
	}

	private opened(ws: ServerWebSocket<UpgradeData>) {
		this.ws = ws
		const early = this.early
		this.early = []
		if (this.ended) return void ws.close(CLOSE.goingAway)
		for (const text of early) this.send(text)
	}

	private received(message: string | Buffer) {
		if (this.ended) return
		this.touch()
		if (typeof message !== 'string') return this.fail(relayErrors.badRequest('binary frames are not supported: send each event as a JSON text frame'), CLOSE.unsupported)
		if (message.length > this.limits.maxFrameBytes || Buffer.byteLength(message) > this.limits.maxFrameBytes) {
			return this.fail(new RelayError(413, `an event frame may be at most ${this.limits.maxFrameBytes} bytes`, 'invalid_request_error', 'message_too_large'), CLOSE.tooBig)
		}
		let event: unknown
		try {
			event = parseJsonText(message)
		} catch {
			return this.fail(new RelayError(400, 'the event is not valid JSON (or nests more than 64 levels deep)', 'invalid_request_error', 'invalid_json'), CLOSE.invalidPayload)
		}
		if (!isObject(event) || typeof event.type !== 'string') return this.fail(new RelayError(400, 'an event must be a JSON object with a type', 'invalid_request_error', 'invalid_event'), CLOSE.invalidPayload)
		this.queue(() => this.handlers.message(message, event as Json))
	}

	private touch() {
		clearTimeout(this.idleTimer)
		if (this.ended) return
		this.idleTimer = setTimeout(() => this.fail(new RelayError(400, `the session was idle for ${Math.round(this.limits.idleMs / 1000)} seconds`, 'invalid_request_error', 'session_idle'), CLOSE.normal), this.limits.idleMs)
	}

	private end() {
		if (this.ended) return
		this.ended = true
		clearTimeout(this.idleTimer)
		clearTimeout(this.maxTimer)
		this.abort.abort()
		this.handlers.ended()
	}
}
