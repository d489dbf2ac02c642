/**
 * The one outbound HTTP client (docs/operations/security.md#outbound-requests). Each hop: parse the URL, resolve the host once, check
 * every address, then connect to a checked address by IP literal, with the original `Host` header
 * and, for https, the original name for SNI and certificate verification (`tls.serverName`). Fetch
 * never resolves the name itself, so a DNS answer that changes between check and connect
 * (rebinding) has nothing to act on. Redirects are followed here, each hop checked again.
 */
import type { Logger } from '../logger'
import { guardReader, readAllText, readerStream, type BodyReader } from './body-guard'
import { createReachableMemory, probeConnection, type ConnectionProbe } from './connect-probe'
import { OutboundBlockedError, OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError } from './errors'
import { formatUrlHost, type IpBytes } from './ip-address'
import { limitsFor, type Limits, type OutboundRequestInit } from './limits'
import { redirectLocation, requestAfterRedirect, type OutgoingRequest } from './redirect'
import { readRequest, requestUrl } from './request-input'
import { lookupWithBun, resolveTarget, type HostLookup } from './resolve'
import { createAddressPolicy, parseTarget, type OutboundPolicy, type PrivateUpstreamSettings, type Target } from './target'

export type { HostLookup } from './resolve'

export type OutboundFetch = (input: string | URL | Request, init?: OutboundRequestInit) => Promise<Response>

/**
 * An answer whose body is read through the guard directly, with no stream layer in between: the
 * relay's shape, for the hot path. The same checks and limits as the fetch-shaped call apply.
 */
export interface OpenedResponse {
	status: number
	statusText: string
	ok: boolean
	headers: Headers
	/** The URL as asked for (never the IP literal connected to). */
	url: string
	redirected: boolean
	/** Undefined when the answer has no body (HEAD, 204, 304…). */
	body: BodyReader | undefined
	/** Reads the whole body as text (empty when there is none). */
	text(): Promise<string>
}

type OutboundOpen = (input: string | URL | Request, init?: OutboundRequestInit) => Promise<OpenedResponse>

type OutboundClient = OutboundFetch & { open: OutboundOpen }

const EMPTY_BODY: BodyReader = { read: async () => ({ done: true }), cancel: async () => {} }

function opened(response: Response, url: string, redirected: boolean, body: BodyReader | undefined): OpenedResponse {
	return {
		status: response.status, statusText: response.statusText, ok: response.ok, headers: response.headers, url, redirected, body,
		text: () => body ? readAllText(body) : Promise.resolve(''),
	}
}

/** A fetch-shaped answer in the opened shape (for injected fetch functions in tests), body unguarded. */
function openedFromResponse(response: Response): OpenedResponse {
	return opened(response, response.url, response.redirected, response.body ? response.body.getReader() as BodyReader : undefined)
}

/**
 * Opens requests through `fetch` with `init` (policy, timeouts) added to each: the client's own
 * `open`, or for an injected fetch function (tests), its answers adapted to the opened shape.
 */
export function openerWith(fetch: OutboundFetch, init: OutboundRequestInit): (url: string, requestInit: RequestInit) => Promise<OpenedResponse> {
	const { open } = fetch as Partial<OutboundClient>
	return open
		? (url, requestInit) => open(url, { ...requestInit, ...init })
		: async (url, requestInit) => openedFromResponse(await fetch(url, { ...requestInit, ...init }))
}

/** The body of an opened answer, or a body that ends at once when it has none. */
export const bodyOrEmpty = (opened: OpenedResponse): BodyReader => opened.body ?? EMPTY_BODY

interface OutboundClientOptions {
	privateUpstreams: PrivateUpstreamSettings
	/** Name resolution; Bun's resolver by default. Tests map names to loopback addresses here. */
	lookup?: HostLookup
	/** Certificate authorities for https; when set they replace the default trust store (tests, private CAs). */
	ca?: string | string[]
	/** Refused requests are logged at warn with scheme, host, port, policy and reason. */
	logger?: Logger
	probe?: ConnectionProbe
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])
const CONNECT_FAILURE_CODES = new Set(['ECONNREFUSED', 'ConnectionRefused', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

/** Errors of fetch or the body carry the IP URL and query string in `path`: only a code survives. */
function toSafeError(error: unknown, target: string, own: AbortSignal, caller: AbortSignal | undefined): unknown {
	if (error instanceof OutboundError) return error
	if (own.aborted) return own.reason
	if (caller?.aborted) return caller.reason
	const code = (error as { code?: unknown } | null)?.code
	return new OutboundNetworkError(target, typeof code === 'string' && /^\w{1,64}$/.test(code) ? code : 'network_error')
}

function isConnectFailure(error: unknown): boolean {
	return (error instanceof OutboundTimeoutError && error.phase === 'connect')
		|| (error instanceof OutboundNetworkError && CONNECT_FAILURE_CODES.has(error.code))
}

interface Sent {
	response: Response
	controller: AbortController
	/** Unhooks the caller's signal from this request; called once the answer is done with. */
	release(): void
}

const nothing = () => {}

/**
 * Aborts the request when the caller aborts, for as long as the answer is being read; answers the
 * unhook. (Cheaper than `AbortSignal.any`, which the relay would pay on every call.)
 */
function linkCaller(caller: AbortSignal | undefined, controller: AbortController): () => void {
	if (!caller) return nothing
	if (caller.aborted) {
		controller.abort(caller.reason)
		return nothing
	}
	const forward = () => controller.abort(caller.reason)
	caller.addEventListener('abort', forward, { once: true })
	return () => caller.removeEventListener('abort', forward)
}

const CACHE_LIMIT = 1000

/** A Map that forgets everything when it grows past the limit: enough for a few hundred upstreams. */
function remember<Value>(cache: Map<string, Value>, key: string, make: () => Value): Value {
	let value = cache.get(key)
	if (value === undefined) {
		if (cache.size >= CACHE_LIMIT) cache.clear()
		value = make()
		cache.set(key, value)
	}
	return value
}

/** Parsed targets by URL text: the relay calls the same few base URLs over and over. */
const targets = new Map<string, Target>()
const targetOf = (input: string | URL) => typeof input === 'string' ? remember(targets, input, () => parseTarget(input)) : parseTarget(input)

/** The URL to fetch for a checked address: the target's URL with the IP literal as its host. */
type Addressed = { url: string; socketHost: string; endpoint: string }
const addressedUrls = new Map<string, Addressed>()
/** The same for a target whose host is an IP literal, kept with the (cached) target itself. */
const literalUrls = new WeakMap<Target, Addressed>()
function addressedUrl(target: Target, address: IpBytes) {
	const known = address === target.literal ? literalUrls.get(target) : undefined
	if (known) return known
	const urlHost = formatUrlHost(address)
	const found = remember(addressedUrls, `${target.url.href} ${urlHost}`, () => {
		const url = new URL(target.url)
		url.hostname = urlHost
		url.port = String(target.port)
		url.hash = ''
		const socketHost = urlHost.replace(/^\[|\]$/g, '')
		return { url: url.href, socketHost, endpoint: `${socketHost} ${target.port}` }
	})
	if (address === target.literal) literalUrls.set(target, found)
	return found
}

export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
	const addressPolicy = createAddressPolicy(options.privateUpstreams)
	const lookup = options.lookup ?? lookupWithBun
	const probe = options.probe ?? probeConnection
	const reachable = createReachableMemory()

	async function attempt(target: Target, address: IpBytes, request: OutgoingRequest, limits: Limits, init: OutboundRequestInit, caller: AbortSignal | undefined): Promise<Sent> {
		const controller = new AbortController()
		const release = linkCaller(caller, controller)
		const { url, socketHost, endpoint } = addressedUrl(target, address)
		// `request.headers` is this call's own copy (request-input.ts, redirect.ts): setting Host is safe.
		const headers = request.headers
		headers.set('host', target.url.host)
		const tls = target.url.protocol === 'https:'
			? { ...(target.literal ? {} : { serverName: target.hostName }), ...(options.ca ? { ca: options.ca } : {}) }
			: undefined

		const firstByteTimer = setTimeout(() => controller.abort(new OutboundTimeoutError('first_byte', target.description, limits.firstByte)), limits.firstByte)
		let probeController: AbortController | undefined
		let connectTimer: ReturnType<typeof setTimeout> | undefined
		if (!reachable.recentlyAnswered(endpoint)) {
			probeController = new AbortController()
			const probing = probeController
			connectTimer = setTimeout(() => {
				probing.abort()
				controller.abort(new OutboundTimeoutError('connect', target.description, limits.connect))
			}, limits.connect)
			const settled = () => clearTimeout(connectTimer)
			// For https the handshake is part of connecting: a server that never answers the ClientHello is a connect timeout.
			const probeTls = tls ? { serverName: target.literal ? undefined : target.hostName } : undefined
			probe(socketHost, target.port, probing.signal, probeTls).then(settled, settled)
		}
		try {
			const response = await fetch(url, {
				method: request.method,
				headers,
				body: request.body,
				signal: controller.signal,
				redirect: 'manual',
				proxy: false,
				tls,
				decompress: init.decompress,
			})
			reachable.answered(endpoint)
			return { response, controller, release }
		} catch (error) {
			release()
			throw toSafeError(error, target.description, controller.signal, caller)
		} finally {
			clearTimeout(firstByteTimer)
			clearTimeout(connectTimer)
			probeController?.abort()
		}
	}

	async function send(target: Target, request: OutgoingRequest, policy: OutboundPolicy, limits: Limits, init: OutboundRequestInit, caller: AbortSignal | undefined): Promise<Sent> {
		const addresses = await resolveTarget(target, lookup, limits.connect, caller)
		addressPolicy.check(target, addresses, policy)
		for (let index = 0; ; index++) {
			try {
				return await attempt(target, addresses[index]!, request, limits, init, caller)
			} catch (error) {
				if (index + 1 >= addresses.length || !request.replayable || !isConnectFailure(error)) throw error
			}
		}
	}

	/** The guarded body reader of an answer, or undefined when it has no body. */
	function bodyOf({ response, controller, release }: Sent, target: Target, method: string, limits: Limits, caller: AbortSignal | undefined): BodyReader | undefined {
		if (method === 'HEAD' || NULL_BODY_STATUSES.has(response.status) || !response.body) {
			release()
			response.body?.cancel().catch(() => {})
			return undefined
		}
		const declared = Number(response.headers.get('content-length') ?? '')
		if (Number.isFinite(declared) && declared > limits.maxBytes) {
			const error = new OutboundTooLargeError(target.description, limits.maxBytes)
			controller.abort(error)
			release()
			response.body.cancel(error).catch(() => {})
			throw error
		}
		return guardReader(response.body, {
			idleMilliseconds: limits.idle,
			maxBytes: limits.maxBytes,
			target: target.description,
			translate: (error) => toSafeError(error, target.description, controller.signal, caller),
			stop: (reason) => controller.abort(reason),
			done: release,
		})
	}

	/** Sends the request and follows redirects, each hop checked; answers the last hop unread. */
	async function follow(input: string | URL | Request, init: OutboundRequestInit, policy: OutboundPolicy) {
		const limits = limitsFor(policy, init)
		let target = targetOf(requestUrl(input))
		const { request: first, signal: caller, redirect } = await readRequest(input, init)
		let request = first
		for (let redirects = 0; ; redirects++) {
			caller?.throwIfAborted()
			const sent = await send(target, request, policy, limits, init, caller)
			const location = redirect === 'manual' ? undefined : redirectLocation(sent.response)
			if (location === undefined) {
				const { response } = sent
				return { response, url: target.url.href, redirected: redirects > 0, body: bodyOf(sent, target, request.method, limits, caller) }
			}
			sent.release()
			sent.response.body?.cancel().catch(() => {})
			if (redirect === 'error') throw new OutboundBlockedError('redirect', target.description)
			if (redirects >= limits.maxRedirects) throw new OutboundBlockedError('too_many_redirects', target.description)
			let next: Target
			try {
				next = parseTarget(new URL(location, target.url))
			} catch (error) {
				throw error instanceof OutboundError ? error : new OutboundBlockedError('invalid_url', target.description)
			}
			request = requestAfterRedirect(request, sent.response.status, target.url, next.url, target.description)
			target = next
		}
	}

	async function logged<Value>(policy: OutboundPolicy, work: () => Promise<Value>): Promise<Value> {
		try {
			return await work()
		} catch (error) {
			if (error instanceof OutboundBlockedError) {
				options.logger?.warn('outbound request refused', { target: error.target, reason: error.reason, policy })
			}
			throw error
		}
	}

	const open: OutboundOpen = (input, init = {}) => {
		const policy = init.policy ?? 'user-content'
		return logged(policy, async () => {
			const { response, url, redirected, body } = await follow(input, init, policy)
			return opened(response, url, redirected, body)
		})
	}

	const fetchShaped: OutboundFetch = (input, init = {}) => {
		const policy = init.policy ?? 'user-content'
		return logged(policy, async () => {
			const { response, url, redirected, body } = await follow(input, init, policy)
			const result = new Response(body ? readerStream(body) : null, { status: response.status, statusText: response.statusText, headers: response.headers })
			Object.defineProperty(result, 'url', { value: url })
			Object.defineProperty(result, 'redirected', { value: redirected })
			return result
		})
	}

	return Object.assign(fetchShaped, { open })
}
