/**
 * The upstream's side of a long session: one socket to a channel's key, opened through the guarded
 * connector (upstream/websocket.ts: the host resolved and checked, the channel's private-address
 * consent), read as it comes. Each message is handed on in order, one at a time (the relay bills as
 * it reads); messages waiting for their turn are bounded (`MAX_QUEUED_BYTES`), and so is one message
 * (the upstream policy's body limit), else the socket is closed as failed. A refused handshake
 * answers its HTTP status (401/403: the key; 429, 5xx: try another).
 */
import type { Dependencies } from '@/dependencies'
import { OutboundError } from '@/lib/outbound'
import { WebSocketHandshakeError } from '@/lib/outbound/websocket'
import { upstreamWebSocketConnect } from '../upstream/websocket'

/** Upstream messages waiting for the relay, at most (a client reading slowly slows the relay). */
const MAX_QUEUED_BYTES = 64 * 1024 * 1024
const NORMAL_CLOSURE = 1000
const GOING_AWAY = 1001
const INTERNAL_ERROR = 1011

export interface UpstreamSocketHandlers {
	/** One upstream message, after the previous one's handling ended. */
	message(text: string): Promise<void>
	/** The upstream closed (or failed): `code` as it closed, or 1011. Called once, after the last message. */
	closed(code: number, reason: string): void
}

export interface UpstreamSocket {
	send(text: string): boolean
	close(): void
}

/** Why a socket could not be opened: the handshake's status, or none (no connection). */
export class UpstreamSocketError extends Error {
	constructor(readonly status: number | undefined, message: string) {
		super(message)
	}
}

const decoder = new TextDecoder()

export async function openUpstreamSocket(dependencies: Dependencies, url: string, headers: Record<string, string>, handlers: UpstreamSocketHandlers): Promise<UpstreamSocket> {
	let connected
	try {
		connected = await upstreamWebSocketConnect(dependencies)(url, { headers })
	} catch (error) {
		if (error instanceof WebSocketHandshakeError) throw new UpstreamSocketError(error.status, error.message)
		throw new UpstreamSocketError(undefined, error instanceof OutboundError ? error.message : 'the upstream could not be reached')
	}
	const { socket, limits } = connected
	let queued = 0
	let chain: Promise<void> = Promise.resolve()
	let closed = false
	const finish = (code: number, reason: string) => {
		if (closed) return
		closed = true
		chain = chain.then(() => handlers.closed(code, reason))
	}
	const fail = (reason: string) => {
		if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(INTERNAL_ERROR, reason)
		finish(INTERNAL_ERROR, reason)
	}
	socket.addEventListener('message', (event) => {
		if (closed) return
		const text = typeof event.data === 'string' ? event.data : decoder.decode(event.data as ArrayBuffer)
		if (text.length > limits.maxBytes) return fail('an upstream message was larger than allowed')
		queued += text.length
		if (queued > MAX_QUEUED_BYTES) return fail('the upstream sent more than the session could pass on')
		chain = chain.then(async () => {
			queued -= text.length
			if (!closed) await handlers.message(text)
		}).catch(() => fail('handling an upstream message failed'))
	})
	socket.addEventListener('close', (event) => finish(event.code || NORMAL_CLOSURE, event.reason))
	socket.addEventListener('error', () => fail('the upstream connection failed'))
	return {
		send(text) {
			if (closed || socket.readyState !== WebSocket.OPEN) return false
			socket.send(text)
			return true
		},
		close() {
			if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(GOING_AWAY)
			finish(GOING_AWAY, '')
		},
	}
}
