/**
 * Multipart uploads (`/v1/images/edits`, `/variations`, `/v1/audio/transcriptions`, `/translations`):
 * read by the relay's one body reader, checked and billed by their text fields, and sent upstream
 * intact — the client's own bytes while the model name is unchanged, the same parts re-encoded with
 * the upstream model name when the channel maps it.
 *
 * The canonical body of such a call is an object of its text fields (what the stages check, hold,
 * route and bill by); the upload itself is the canonical request's `upload` (canonical.ts).
 */
import type { RequestBody } from '@/lib/request-body'

export interface Upload {
	/** The body exactly as the client sent it, and its content type (with the boundary). */
	bytes: Uint8Array<ArrayBuffer>
	contentType: string
	form: FormData
	/** The `model` field as the client sent it. */
	model: unknown
	/** The names of the file parts. */
	files: ReadonlySet<string>
}

/**
 * An upload read by the relay's body reader (edge/read-body.ts) → its canonical body, the text
 * fields (a field sent more than once, such as `timestamp_granularities[]`, as a list), and the upload.
 */
export function canonicalUpload(upload: Extract<RequestBody, { type: 'multipart' }>): { body: Record<string, unknown>; upload: Upload } {
	const body: Record<string, unknown> = { ...upload.fields }
	return { body, upload: { bytes: upload.bytes, contentType: upload.contentType, form: upload.form, model: body.model, files: upload.files } }
}

/** Whether an upload has a file part of one of these names; undefined for a request that came as JSON. */
export function hasFilePart(upload: Upload | undefined, names: readonly string[]): boolean | undefined {
	return upload && names.some((name) => upload.files.has(name))
}

/**
 * The upstream body of an upload for the upstream `model`: the client's bytes when the name is
 * unchanged, else every part in order with `model` replaced (or added, when the client named none).
 */
export async function uploadUpstreamBody(upload: Upload, model: unknown): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
	if (model === upload.model) return { bytes: upload.bytes, contentType: upload.contentType }
	const form = new FormData()
	for (const [name, value] of upload.form.entries()) form.append(name, name === 'model' ? String(model) : value)
	// A model the client left out (the endpoint's default) goes last.
	if (!upload.form.has('model')) form.append('model', String(model))
	const encoded = new Response(form)
	// Read before the body: Bun forgets a FormData body's content type once the body is consumed.
	const contentType = encoded.headers.get('content-type')!
	return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType }
}
