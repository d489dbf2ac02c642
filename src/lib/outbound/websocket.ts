/**
 * The outbound WebSocket client, for upstreams that speak WebSocket instead of HTTP (iFlytek Spark).
 * The same rules as the HTTP client (docs/operations/security.md#outbound-requests): the host is resolved once, every address is checked
 * against the policy, and the socket connects to a checked address by IP literal with the original
 * `Host` header and, for wss, the original name for SNI and certificate checks. Timeouts: `connect`
 * bounds the lookup and the handshake, `firstByte` the wait for the first message, `idle` every
 * later gap; `maxBytes` bounds all messages together.
 */
import type { Logger } from '../logger'
import type { HostLookup } from './client'
import { OutboundBlockedError, OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError } from './errors'
import { formatUrlHost, parseIp, type IpBytes } from './ip-address'
import { limitsFor, type Limits, type OutboundTimeouts } from './limits'
import { createAddressPolicy, parseTarget, type OutboundPolicy, type PrivateUpstreamSettings, type Target } from './target'

/** The server answered the upgrade request with a status other than 101. */
export class WebSocketHandshakeError extends OutboundError {
	override name = 'WebSocketHandshakeError'
	readonly status: number

	constructor(target: string, status: number) {
		super(`WebSocket handshake with ${target} refused: status ${status}`, target)
		this.status = status
	}
}

interface WebSocketInit {
	policy?: OutboundPolicy
	timeouts?: OutboundTimeouts
	maxBytes?: number
	headers?: Record<string, string>
	signal?: AbortSignal
}

/** An open connection read one message at a time. */
export interface OpenedWebSocket {
	send(text: string): void
	/** The next text message, or undefined once the server closed the connection. */
	next(): Promise<string | undefined>
	close(): void
}

export type WebSocketOpen = (url: string, init?: WebSocketInit) => Promise<OpenedWebSocket>

/** A socket connected under the policy, for a caller that reads it itself (a long session's relay), with what its limits are. */
export interface ConnectedWebSocket {
	socket: WebSocket
	/** The target as errors name it (never the URL's query). */
	description: string
	limits: Limits
}

export type WebSocketConnect = (url: string, init?: WebSocketInit & { protocols?: string[] }) => Promise<ConnectedWebSocket>

interface WebSocketClientOptions {
	privateUpstreams: PrivateUpstreamSettings
	lookup?: HostLookup
	ca?: string | string[]
	logger?: Logger
}

const SCHEME_FOR_CHECKS: Record<string, string> = { 'ws:': 'http:', 'wss:': 'https:' }
/** Bun reports a refused upgrade only in the error text (which also holds the URL: never shown). */
const HANDSHAKE_STATUS = /Expected 101 status code: (\d{3})/
const NORMAL_CLOSURE = 1000

/** Bun's constructor takes options (headers, tls); the DOM typings in scope hide that overload. */
const BunWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket

const decoder = new TextDecoder()

const lookupWithBun: HostLookup = async (hostName) => (await Bun.dns.lookup(hostName, { family: 0 })).map((entry) => entry.address)

/** The ws(s) URL as an http(s) target, so the HTTP client's URL rules apply unchanged. */
function webSocketTarget(url: string): Target {
	let parsed: URL
	try {
		parsed = new URL(url)
	} catch {
		throw new OutboundBlockedError('invalid_url', 'an invalid URL')
	}
	const scheme = SCHEME_FOR_CHECKS[parsed.protocol]
	if (!scheme) throw new OutboundBlockedError('scheme', `${parsed.protocol}//`)
	parsed.protocol = scheme
	return parseTarget(parsed)
}

function addressedUrl(target: Target, address: IpBytes) {
	const url = new URL(target.url)
	url.protocol = target.url.protocol === 'https:' ? 'wss:' : 'ws:'
	url.hostname = formatUrlHost(address)
	url.port = String(target.port)
	url.hash = ''
	return url.href
}

/** A queue of received messages, read with the first-message, idle and size limits. */
function messageQueue(socket: WebSocket, target: Target, limits: Limits, signal: AbortSignal | undefined): OpenedWebSocket {
	const received: string[] = []
	let ended = false
	let failure: unknown
	let waiter: (() => void) | undefined
	let bytes = 0
	let first = true
	const wake = () => {
		waiter?.()
		waiter = undefined
	}
	const close = () => {
		ended = true
		signal?.removeEventListener('abort', onAbort)
		if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(NORMAL_CLOSURE)
		wake()
	}
	const fail = (reason: unknown) => {
		failure ??= reason
		close()
	}
	const onAbort = () => fail(signal!.reason)
	signal?.addEventListener('abort', onAbort, { once: true })
	socket.addEventListener('message', (event) => {
		const text = typeof event.data === 'string' ? event.data : decoder.decode(event.data as ArrayBuffer)
		bytes += Buffer.byteLength(text)
		if (bytes > limits.maxBytes) return fail(new OutboundTooLargeError(target.description, limits.maxBytes))
		received.push(text)
		wake()
	})
	socket.addEventListener('close', () => {
		ended = true
		signal?.removeEventListener('abort', onAbort)
		wake()
	})
	socket.addEventListener('error', () => fail(new OutboundNetworkError(target.description, 'websocket_error')))
	return {
		send: (text) => socket.send(text),
		async next() {
			for (;;) {
				// Messages that arrived before a failure are still delivered: the last one may be the answer's end.
				const message = received.shift()
				if (message !== undefined) {
					first = false
					return message
				}
				if (failure) throw failure
				if (ended) return undefined
				const milliseconds = first ? limits.firstByte : limits.idle
				const phase = first ? 'first_byte' : 'idle'
				let timer: ReturnType<typeof setTimeout> | undefined
				await new Promise<void>((resolve) => {
					waiter = resolve
					timer = setTimeout(() => fail(new OutboundTimeoutError(phase, target.description, milliseconds)), milliseconds)
				})
				clearTimeout(timer)
			}
		},
		close,
	}
}

export function createWebSocketClient(options: WebSocketClientOptions): WebSocketOpen {
	const connect = createWebSocketConnector(options)
	return async (url, init = {}) => {
		const { socket, limits } = await connect(url, init)
		return messageQueue(socket, webSocketTarget(url), limits, init.signal)
	}
}

/**
 * Connects under the same rules as the client (the host resolved once, every address checked,
 * the socket opened to a checked address), answering the open socket itself.
 */
export function createWebSocketConnector(options: WebSocketClientOptions): WebSocketConnect {
	const addressPolicy = createAddressPolicy(options.privateUpstreams)
	const lookup = options.lookup ?? lookupWithBun

	async function resolve(target: Target, limits: Limits): Promise<IpBytes[]> {
		if (target.literal) return [target.literal]
		let timer: ReturnType<typeof setTimeout> | undefined
		const deadline = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new OutboundTimeoutError('connect', target.description, limits.connect)), limits.connect)
		})
		let answers: string[]
		try {
			answers = await Promise.race([lookup(target.hostName), deadline])
		} catch (error) {
			if (error instanceof OutboundError) throw error
			throw new OutboundNetworkError(target.description, 'ENOTFOUND')
		} finally {
			clearTimeout(timer)
		}
		const addresses = answers.map((answer) => parseIp(answer))
		if (addresses.length === 0 || addresses.some((address) => address === undefined)) throw new OutboundNetworkError(target.description, 'ENOTFOUND')
		return addresses as IpBytes[]
	}

	/** Connects to one address; settles when the handshake is done or failed. */
	function connect(target: Target, address: IpBytes, init: WebSocketInit & { protocols?: string[] }, limits: Limits): Promise<WebSocket> {
		const tls = target.url.protocol === 'https:'
			? { ...(target.literal ? {} : { serverName: target.hostName }), ...(options.ca ? { ca: options.ca } : {}) }
			: undefined
		const socketOptions: Bun.WebSocketOptions = {
			headers: { ...init.headers, host: target.url.host },
			...(init.protocols ? { protocols: init.protocols } : {}),
			...(tls ? { tls } : {}),
			perMessageDeflate: false,
		}
		const socket = new BunWebSocket(addressedUrl(target, address), socketOptions)
		return new Promise<WebSocket>((resolve, reject) => {
			const settle = (error?: unknown) => {
				clearTimeout(timer)
				init.signal?.removeEventListener('abort', onAbort)
				socket.removeEventListener('open', onOpen)
				socket.removeEventListener('error', onError)
				if (error === undefined) return resolve(socket)
				socket.close()
				reject(error)
			}
			const onOpen = () => settle()
			const onError = (event: Event) => {
				const status = HANDSHAKE_STATUS.exec((event as ErrorEvent).message ?? '')?.[1]
				settle(status ? new WebSocketHandshakeError(target.description, Number(status)) : new OutboundNetworkError(target.description, 'websocket_error'))
			}
			const onAbort = () => settle(init.signal!.reason)
			const timer = setTimeout(() => settle(new OutboundTimeoutError('connect', target.description, limits.connect)), limits.connect)
			socket.addEventListener('open', onOpen)
			socket.addEventListener('error', onError)
			init.signal?.addEventListener('abort', onAbort, { once: true })
		})
	}

	return async (url, init = {}) => {
		const policy = init.policy ?? 'user-content'
		try {
			init.signal?.throwIfAborted()
			const target = webSocketTarget(url)
			const limits = limitsFor(policy, init)
			const addresses = await resolve(target, limits)
			addressPolicy.check(target, addresses, policy)
			for (let index = 0; ; index++) {
				try {
					const socket = await connect(target, addresses[index]!, init, limits)
					return { socket, description: target.description, limits }
				} catch (error) {
					const retryable = error instanceof OutboundNetworkError || (error instanceof OutboundTimeoutError && error.phase === 'connect')
					if (index + 1 >= addresses.length || !retryable || init.signal?.aborted) throw error
				}
			}
		} catch (error) {
			if (error instanceof OutboundBlockedError) options.logger?.warn('outbound request refused', { target: error.target, reason: error.reason, policy })
			throw error
		}
	}
}
