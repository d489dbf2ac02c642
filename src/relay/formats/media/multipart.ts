/**
 * Multipart uploads (`/v1/images/edits`, `/variations`, `/v1/audio/transcriptions`, `/translations`):
 * read by the relay's one body reader, checked and billed by their text fields, and sent upstream
 * intact — the client's own bytes while the model name is unchanged, the same parts re-encoded with
 * the upstream model name when the channel maps it.
 *
 * The canonical body of such a call is an object of its text fields (what the pipeline checks,
 * holds, routes and bills by); the upload itself rides on it under a symbol, like the canonical
 * form's other extras (canonical.ts): never serialised, kept by `{ ...body, model }`.
 */
import type { RequestBody } from '@/lib/request-body'

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

/**
 * An upload read by the relay's body reader (edge/read-body.ts) → its canonical body: the text
 * fields (a field sent more than once, such as `timestamp_granularities[]`, as a list), with the
 * upload attached.
 */
export function uploadBody(upload: Extract<RequestBody, { type: 'multipart' }>): Record<string, unknown> {
	const body: Body = { ...upload.fields }
	body[MULTIPART] = { bytes: upload.bytes, contentType: upload.contentType, form: upload.form, model: body.model, files: upload.files }
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
