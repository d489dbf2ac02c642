/**
 * The one outbound HTTP client (design §8). Each hop: parse the URL, resolve the host once, check
 * every address, then connect to a checked address by IP literal, with the original `Host` header
 * and, for https, the original name for SNI and certificate verification (`tls.serverName`). Fetch
 * never resolves the name itself, so a DNS answer that changes between check and connect
 * (rebinding) has nothing to act on. Redirects are followed here, each hop checked again.
 */
import type { Logger } from '../logger'
import { guardBody } from './body-guard'
import { createReachableMemory, probeTcp, type ConnectionProbe } from './connect-probe'
import { OutboundBlockedError, OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError } from './errors'
import { formatUrlHost, parseIp, type IpBytes } from './ip-address'
import { limitsFor, type Limits, type OutboundRequestInit } from './limits'
import { redirectLocation, requestAfterRedirect, type OutgoingRequest } from './redirect'
import { readRequest, requestUrl } from './request-input'
import { createAddressPolicy, parseTarget, type OutboundPolicy, type PrivateUpstreamSettings, type Target } from './target'

export type OutboundFetch = (input: string | URL | Request, init?: OutboundRequestInit) => Promise<Response>

/** Every address the name resolves to. */
export type HostLookup = (hostName: string) => Promise<string[]>

export interface OutboundClientOptions {
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

const lookupWithBun: HostLookup = async (hostName) => (await Bun.dns.lookup(hostName, { family: 0 })).map((entry) => entry.address)

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

/** Settles with the promise, or rejects at the deadline or when the caller aborts. */
async function within<Value>(promise: Promise<Value>, milliseconds: number, onTimeout: () => unknown, caller: AbortSignal | undefined): Promise<Value> {
	let timer: ReturnType<typeof setTimeout> | undefined
	let onAbort: (() => void) | undefined
	const stop = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(onTimeout()), milliseconds)
		onAbort = () => reject(caller!.reason)
		caller?.addEventListener('abort', onAbort, { once: true })
	})
	try {
		return await Promise.race([promise, stop])
	} finally {
		clearTimeout(timer)
		if (onAbort) caller?.removeEventListener('abort', onAbort)
	}
}

interface Sent {
	response: Response
	controller: AbortController
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
const addressedUrls = new Map<string, { url: string; socketHost: string }>()
function addressedUrl(target: Target, address: IpBytes) {
	const urlHost = formatUrlHost(address)
	return remember(addressedUrls, `${target.url.href} ${urlHost}`, () => {
		const url = new URL(target.url)
		url.hostname = urlHost
		url.port = String(target.port)
		url.hash = ''
		return { url: url.href, socketHost: urlHost.replace(/^\[|\]$/g, '') }
	})
}

export function createOutboundClient(options: OutboundClientOptions): OutboundFetch {
	const addressPolicy = createAddressPolicy(options.privateUpstreams)
	const lookup = options.lookup ?? lookupWithBun
	const probe = options.probe ?? probeTcp
	const reachable = createReachableMemory()

	async function resolve(target: Target, limits: Limits, caller: AbortSignal | undefined): Promise<IpBytes[]> {
		if (target.literal) return [target.literal]
		let answers: string[]
		try {
			answers = await within(lookup(target.hostName), limits.connect, () => new OutboundTimeoutError('connect', target.description, limits.connect), caller)
		} catch (error) {
			if (error instanceof OutboundError || caller?.aborted) throw error
			throw new OutboundNetworkError(target.description, 'ENOTFOUND')
		}
		const addresses = answers.map((answer) => parseIp(answer))
		if (addresses.length === 0 || addresses.some((address) => address === undefined)) {
			throw new OutboundNetworkError(target.description, 'ENOTFOUND')
		}
		return addresses as IpBytes[]
	}

	async function attempt(target: Target, address: IpBytes, request: OutgoingRequest, limits: Limits, init: OutboundRequestInit, caller: AbortSignal | undefined): Promise<Sent> {
		const controller = new AbortController()
		const signal = caller ? AbortSignal.any([caller, controller.signal]) : controller.signal
		const { url, socketHost } = addressedUrl(target, address)
		// `request.headers` is this call's own copy (request-input.ts, redirect.ts): setting Host is safe.
		const headers = request.headers
		headers.set('host', target.url.host)
		const tls = target.url.protocol === 'https:'
			? { ...(target.literal ? {} : { serverName: target.hostName }), ...(options.ca ? { ca: options.ca } : {}) }
			: undefined

		const firstByteTimer = setTimeout(() => controller.abort(new OutboundTimeoutError('first_byte', target.description, limits.firstByte)), limits.firstByte)
		let probeController: AbortController | undefined
		let connectTimer: ReturnType<typeof setTimeout> | undefined
		if (!reachable.recentlyAnswered(socketHost, target.port)) {
			probeController = new AbortController()
			const probing = probeController
			connectTimer = setTimeout(() => {
				probing.abort()
				controller.abort(new OutboundTimeoutError('connect', target.description, limits.connect))
			}, limits.connect)
			const settled = () => clearTimeout(connectTimer)
			probe(socketHost, target.port, probing.signal).then(settled, settled)
		}
		try {
			const response = await fetch(url, {
				method: request.method,
				headers,
				body: request.body,
				signal,
				redirect: 'manual',
				proxy: false,
				tls,
				decompress: init.decompress,
			})
			reachable.answered(socketHost, target.port)
			return { response, controller }
		} catch (error) {
			throw toSafeError(error, target.description, controller.signal, caller)
		} finally {
			clearTimeout(firstByteTimer)
			clearTimeout(connectTimer)
			probeController?.abort()
		}
	}

	async function send(target: Target, request: OutgoingRequest, policy: OutboundPolicy, limits: Limits, init: OutboundRequestInit, caller: AbortSignal | undefined): Promise<Sent> {
		const addresses = await resolve(target, limits, caller)
		addressPolicy.check(target, addresses, policy)
		for (let index = 0; ; index++) {
			try {
				return await attempt(target, addresses[index]!, request, limits, init, caller)
			} catch (error) {
				if (index + 1 >= addresses.length || !request.replayable || !isConnectFailure(error)) throw error
			}
		}
	}

	function finish(sent: Sent, target: Target, method: string, redirected: boolean, limits: Limits, caller: AbortSignal | undefined): Response {
		const { response, controller } = sent
		let body: ReadableStream<Uint8Array> | null = null
		if (method === 'HEAD' || NULL_BODY_STATUSES.has(response.status) || !response.body) {
			response.body?.cancel().catch(() => {})
		} else {
			const declared = Number(response.headers.get('content-length') ?? '')
			if (Number.isFinite(declared) && declared > limits.maxBytes) {
				const error = new OutboundTooLargeError(target.description, limits.maxBytes)
				controller.abort(error)
				response.body.cancel(error).catch(() => {})
				throw error
			}
			body = guardBody(response.body, {
				idleMilliseconds: limits.idle,
				maxBytes: limits.maxBytes,
				target: target.description,
				translate: (error) => toSafeError(error, target.description, controller.signal, caller),
				stop: (reason) => controller.abort(reason),
			})
		}
		const result = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
		Object.defineProperty(result, 'url', { value: target.url.href })
		Object.defineProperty(result, 'redirected', { value: redirected })
		return result
	}

	async function follow(input: string | URL | Request, init: OutboundRequestInit, policy: OutboundPolicy): Promise<Response> {
		const limits = limitsFor(policy, init)
		let target = targetOf(requestUrl(input))
		const { request: first, signal: caller, redirect } = await readRequest(input, init)
		let request = first
		for (let redirects = 0; ; redirects++) {
			caller?.throwIfAborted()
			const sent = await send(target, request, policy, limits, init, caller)
			const location = redirect === 'manual' ? undefined : redirectLocation(sent.response)
			if (location === undefined) return finish(sent, target, request.method, redirects > 0, limits, caller)
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

	return async (input, init = {}) => {
		const policy = init.policy ?? 'user-content'
		try {
			return await follow(input, init, policy)
		} catch (error) {
			if (error instanceof OutboundBlockedError) {
				options.logger?.warn('outbound request refused', { target: error.target, reason: error.reason, policy })
			}
			throw error
		}
	}
}
