/**
 * What the outbound client throws. Messages name the target by scheme, host and port only: paths
 * and query strings may carry keys (`?key=`, `/bot<token>/`), and user names and passwords in a
 * URL are never repeated.
 */

export type BlockReason =
	| 'invalid_url'
	| 'scheme'
	| 'credentials'
	| 'private_address'
	| 'metadata_address'
	| 'reserved_address'
	| 'redirect'
	| 'too_many_redirects'
	| 'redirect_body'

const BLOCK_TEXT: Record<BlockReason, string> = {
	invalid_url: 'the URL cannot be parsed',
	scheme: 'only http and https are allowed',
	credentials: 'user names and passwords in the URL are not allowed',
	private_address: 'the host is on a private, loopback or link-local network',
	metadata_address: 'the host is a cloud metadata address',
	reserved_address: 'the host is an unspecified, multicast, broadcast or reserved address',
	redirect: 'the server answered with a redirect and redirects were not allowed',
	too_many_redirects: 'too many redirects',
	redirect_body: 'the redirect needs the request body again and the body was a stream',
}

type TimeoutPhase = 'connect' | 'first_byte' | 'idle'

const PHASE_TEXT: Record<TimeoutPhase, string> = {
	connect: 'no connection',
	first_byte: 'no response',
	idle: 'no data',
}

/** The part of a URL safe to show: scheme, host and port. */
export function describeTarget(url: URL): string {
	return `${url.protocol}//${url.host}`
}

export class OutboundError extends Error {
	override name = 'OutboundError'
	/** Scheme, host and port of the request that failed, or `an invalid URL`. */
	readonly target: string

	constructor(message: string, target: string) {
		super(message)
		this.target = target
	}
}

export class OutboundBlockedError extends OutboundError {
	override name = 'OutboundBlockedError'
	readonly reason: BlockReason

	constructor(reason: BlockReason, target: string) {
		super(`outbound request to ${target} refused: ${BLOCK_TEXT[reason]}`, target)
		this.reason = reason
	}
}

export class OutboundTimeoutError extends OutboundError {
	override name = 'OutboundTimeoutError'
	readonly phase: TimeoutPhase
	readonly milliseconds: number

	constructor(phase: TimeoutPhase, target: string, milliseconds: number) {
		super(`outbound request to ${target} timed out: ${PHASE_TEXT[phase]} within ${milliseconds} ms`, target)
		this.phase = phase
		this.milliseconds = milliseconds
	}
}

export class OutboundTooLargeError extends OutboundError {
	override name = 'OutboundTooLargeError'
	readonly limit: number

	constructor(target: string, limit: number) {
		super(`outbound response from ${target} is larger than ${limit} bytes`, target)
		this.limit = limit
	}
}

/** The connection failed (refused, reset, DNS, TLS). `code` is the runtime's code, such as `ECONNREFUSED`. */
export class OutboundNetworkError extends OutboundError {
	override name = 'OutboundNetworkError'
	readonly code: string

	constructor(target: string, code: string) {
		super(`outbound request to ${target} failed: ${code}`, target)
		this.code = code
	}
}
