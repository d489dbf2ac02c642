/** Per-call options of the outbound client and the limits they default to, per policy. */
import type { OutboundPolicy } from './target'

/**
 * Milliseconds. `connect` bounds the name lookup and, again, each new connection (TCP, and for
 * https the TLS handshake); `firstByte` the wait for the response head; `idle` each gap between
 * body chunks.
 */
export interface OutboundTimeouts {
	connect?: number
	firstByte?: number
	idle?: number
}

export interface OutboundRequestInit extends RequestInit {
	/** Which addresses may be reached; `user-content` (the strictest) when left out. */
	policy?: OutboundPolicy
	timeouts?: OutboundTimeouts
	/** Most bytes of response body, after decompression. */
	maxBytes?: number
	/** Most redirects followed when `redirect` is `follow`. */
	maxRedirects?: number
	/** Bun's option: `false` passes a compressed body through untouched. */
	decompress?: boolean
}

export interface Limits {
	connect: number
	firstByte: number
	idle: number
	maxBytes: number
	maxRedirects: number
}

const MEBIBYTE = 1024 * 1024

/** Upstreams are language models: a long wait before the first byte is normal for them. */
const DEFAULT_LIMITS: Record<OutboundPolicy, Limits> = {
	upstream: { connect: 10_000, firstByte: 300_000, idle: 120_000, maxBytes: 64 * MEBIBYTE, maxRedirects: 5 },
	service: { connect: 10_000, firstByte: 30_000, idle: 30_000, maxBytes: 64 * MEBIBYTE, maxRedirects: 5 },
	'user-content': { connect: 10_000, firstByte: 30_000, idle: 30_000, maxBytes: 64 * MEBIBYTE, maxRedirects: 5 },
}

export function limitsFor(policy: OutboundPolicy, init: OutboundRequestInit): Limits {
	const defaults = DEFAULT_LIMITS[policy]
	return {
		connect: init.timeouts?.connect ?? defaults.connect,
		firstByte: init.timeouts?.firstByte ?? defaults.firstByte,
		idle: init.timeouts?.idle ?? defaults.idle,
		maxBytes: init.maxBytes ?? defaults.maxBytes,
		maxRedirects: init.maxRedirects ?? defaults.maxRedirects,
	}
}
