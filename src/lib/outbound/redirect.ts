/**
 * Redirects are followed by hand so each hop passes the same checks as the first URL. Method and
 * body change as fetch does them: 303 (other than GET/HEAD), and 301/302 after POST, become a GET
 * without body. On a hop to another origin every header that looks like a credential is dropped
 * (fetch drops only Authorization; upstream keys travel in many headers).
 */
import { OutboundBlockedError } from './errors'

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']
const CREDENTIAL_HEADER = /auth|cookie|key|token|secret|signature|password|session/i

export interface OutgoingRequest {
	method: string
	headers: Headers
	body: BodyInit | null
	/** False for stream bodies, which can be sent once only. */
	replayable: boolean
}

/** The `Location` of a redirect response, or undefined when the response is not one. */
export function redirectLocation(response: Response): string | undefined {
	if (!REDIRECT_STATUSES.has(response.status)) return undefined
	return response.headers.get('location') ?? undefined
}

export function requestAfterRedirect(request: OutgoingRequest, status: number, from: URL, to: URL, target: string): OutgoingRequest {
	const headers = new Headers(request.headers)
	let { method, body, replayable } = request
	if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
		method = 'GET'
		body = null
		replayable = true
		for (const name of BODY_HEADERS) headers.delete(name)
	} else if (body !== null && !replayable) {
		throw new OutboundBlockedError('redirect_body', target)
	}
	if (from.origin !== to.origin) {
		for (const name of [...headers.keys()]) if (CREDENTIAL_HEADER.test(name)) headers.delete(name)
	}
	return { method, headers, body, replayable }
}
