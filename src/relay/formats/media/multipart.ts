/**
 * Multipart uploads (`/v1/images/edits`, `/variations`, `/v1/audio/transcriptions`, `/translations`):
 * read within the relay's body limit, checked and billed by their text fields, and sent upstream
 * intact — the client's own bytes while the model name is unchanged, the same parts re-encoded with
 * the upstream model name when the channel maps it.
 *
 * The canonical body of such a call is an object of its text fields (what the pipeline checks,
 * holds, routes and bills by); the upload itself rides on it under a symbol, like the canonical
 * form's other extras (canonical.ts): never serialised, kept by `{ ...body, model }`.
 */
import { RelayError, relayErrors } from '../../errors'

const MULTIPART = Symbol('ferry.multipart')

interface Multipart {
	/** The body exactly as the client sent it, and its content type (with the boundary). */
	bytes: Uint8Array<ArrayBuffer>
	contentType: string
	form: FormData
	/** The `model` field as the client sent it. */
	model: unknown
	/** The names of the file parts. */
	files: ReadonlySet<string>
}

type Body = Record<string, unknown> & { [MULTIPART]?: Multipart }

export const bodyTooLarge = () => new RelayError(413, 'the request body is too large', 'invalid_request_error', 'request_too_large')

/** Whether the request says it carries JSON (the JSON form of an endpoint that also takes uploads). */
export const isJsonRequest = (request: Request) => (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')

/**
 * The body, read in full but never past `maxBytes`: a declared or actual length above it is a 413,
 * and reading stops there (the rest of an oversized upload is never buffered).
 */
async function readBounded(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
	const declared = Number(request.headers.get('content-length') ?? '')
	if (Number.isFinite(declared) && declared > maxBytes) throw bodyTooLarge()
	if (!request.body) return new Uint8Array()
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let length = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		length += value.byteLength
		if (length > maxBytes) {
			await reader.cancel().catch(() => {})
			throw bodyTooLarge()
		}
		chunks.push(value)
	}
	const bytes = new Uint8Array(length)
	let offset = 0
	for (const chunk of chunks) {
		bytes.set(chunk, offset)
		offset += chunk.byteLength
	}
	return bytes
}

/**
 * A multipart/form-data request → its canonical body: the text fields (a field sent more than once,
 * such as `timestamp_granularities[]`, as a list), with the upload attached. Anything that is not
 * well-formed multipart within the limit is a 400 (or 413).
 */
export async function readMultipartRequest(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
	const contentType = request.headers.get('content-type') ?? ''
	if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) throw relayErrors.badRequest('expected a multipart/form-data body (with its boundary)')
	const bytes = await readBounded(request, maxBytes)
	let form: FormData
	try {
		form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData()
	} catch {
		throw relayErrors.badRequest('the multipart/form-data body is malformed')
	}
	const body: Body = {}
	const files = new Set<string>()
	for (const [name, value] of form.entries()) {
		if (typeof value !== 'string') {
			files.add(name)
			continue
		}
		const previous = body[name]
		body[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
	}
	body[MULTIPART] = { bytes, contentType, form, model: body.model, files }
	return body
}

/** Whether a checked body came as an upload with a file part of one of these names. */
export function hasFilePart(body: Record<string, unknown>, names: readonly string[]): boolean | undefined {
	const multipart = (body as Body)[MULTIPART]
	return multipart && names.some((name) => multipart.files.has(name))
}

export const isMultipart = (body: Record<string, unknown>) => (body as Body)[MULTIPART] !== undefined

/**
 * The upstream body of an upload for `body` (whose `model` is the upstream name by now): the
 * client's bytes when the name is unchanged, else every part in order with `model` replaced (or
 * added, when the client named none).
 * Undefined for a body that did not come as an upload.
 */
export async function multipartUpstreamBody(body: Record<string, unknown>): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string } | undefined> {
	const multipart = (body as Body)[MULTIPART]
	if (!multipart) return undefined
	if (body.model === multipart.model) return { bytes: multipart.bytes, contentType: multipart.contentType }
	const form = new FormData()
	for (const [name, value] of multipart.form.entries()) form.append(name, name === 'model' ? String(body.model) : value)
	// A model the client left out (the endpoint's default) goes last.
	if (!multipart.form.has('model')) form.append('model', String(body.model))
	const encoded = new Response(form)
	// Read before the body: Bun forgets a FormData body's content type once the body is consumed.
	const contentType = encoded.headers.get('content-type')!
	return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType }
}
