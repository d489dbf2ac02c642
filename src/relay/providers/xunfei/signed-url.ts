/**
 * iFlytek's URL authentication for WebSocket APIs: an HMAC-SHA256 (key: the APISecret) over the
 * `host`, `date` and request line, base64; then an authorization text naming the APIKey, base64
 * again; all three travel as query parameters of the handshake URL.
 */
import { createHmac } from 'node:crypto'

export interface SigningInput {
	apiKey: string
	apiSecret: string
	/** As in the URL: with the port when it is not the scheme's default. */
	host: string
	/** RFC 1123, e.g. `Fri, 05 May 2023 10:43:39 GMT`. */
	date: string
	path: string
}

const SIGNED_HEADERS = 'host date request-line'

export function sparkSignature(input: SigningInput) {
	const signatureOrigin = `host: ${input.host}\ndate: ${input.date}\nGET ${input.path} HTTP/1.1`
	const signature = createHmac('sha256', input.apiSecret).update(signatureOrigin, 'utf8').digest('base64')
	const authorizationOrigin = `api_key="${input.apiKey}", algorithm="hmac-sha256", headers="${SIGNED_HEADERS}", signature="${signature}"`
	return { signature, authorization: Buffer.from(authorizationOrigin, 'utf8').toString('base64') }
}

/** The handshake URL: the base with the path and the `authorization`, `date` and `host` parameters. */
export function signedUrl(base: URL, path: string, credentials: { apiKey: string; apiSecret: string }, now: number): string {
	const date = new Date(now).toUTCString()
	const { authorization } = sparkSignature({ ...credentials, host: base.host, date, path })
	const url = new URL(path, base)
	url.search = new URLSearchParams({ authorization, date, host: base.host }).toString()
	return url.href
}
