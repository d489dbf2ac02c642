/**
 * The parts of a fetch call the client sends on: taken from `init` first, then from a `Request`.
 * Everything else (Bun's `unix`, `proxy`, `tls`, `session`, `s3`, `verbose`) is dropped, so no
 * caller can route around the checks.
 */
import type { OutgoingRequest } from './redirect'

const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'])

interface RequestInput {
	url: string | URL
	request: OutgoingRequest
	signal: AbortSignal | undefined
	redirect: RequestRedirect
}

export function requestUrl(input: string | URL | Request): string | URL {
	return input instanceof Request ? input.url : input
}

export async function readRequest(input: string | URL | Request, init: RequestInit): Promise<RequestInput> {
	const source = input instanceof Request ? input : undefined
	const method = init.method ?? source?.method ?? 'GET'
	const upper = method.toUpperCase()
	let body: BodyInit | null = init.body ?? null
	if (init.body === undefined && source?.body) body = await source.arrayBuffer()
	const streamed = body instanceof ReadableStream || (typeof body === 'object' && body !== null && Symbol.asyncIterator in body)
	return {
		url: requestUrl(input),
		request: {
			method: NORMALISED_METHODS.has(upper) ? upper : method,
			headers: new Headers(init.headers ?? source?.headers),
			body,
			replayable: !streamed,
		},
		signal: init.signal ?? source?.signal ?? undefined,
		redirect: init.redirect ?? source?.redirect ?? 'follow',
	}
}
