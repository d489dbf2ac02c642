/**
 * The one reader of client request bodies, for `/api` and the relay alike, whatever the content
 * type: JSON, `application/x-www-form-urlencoded`, `multipart/form-data` and plain text. Its
 * contract, which every caller relies on:
 *
 * - the bytes are read up to `maxBytes` and no further (a larger declared or actual length is
 *   refused as `tooLarge`, and the rest is never buffered);
 * - every limit is checked on the raw text or bytes **before** any structure is built from them:
 *   JSON nesting (`MAX_JSON_DEPTH`), the number of form fields and of multipart parts
 *   (`MAX_FORM_FIELDS`);
 * - the time it takes is linear in the size of the body (repeated fields are gathered in one pass;
 *   nothing is copied per field);
 * - form values are text: a field is never read as JSON, whatever it looks like.
 *
 * Refusals are `RequestBodyError`s naming the problem; each caller words them in its own format.
 *
 * Why nesting is bounded: a body nested thousands of levels deep parses in a millisecond, but
 * everything that walks it afterwards (validation, error messages, converters, `JSON.stringify`)
 * recurses, and Elysia's validation error serialised it with indentation, in time quadratic in the
 * depth: 80 KB of `[[[…]]]` held the whole server for seconds and ended in a stack overflow.
 */
import { MAX_FORM_FIELDS, MAX_JSON_DEPTH } from '@shared/api'

export const BODY_PROBLEM = {
	tooLarge: 'too_large',
	tooDeep: 'too_deep',
	invalidJson: 'invalid_json',
	tooManyFields: 'too_many_fields',
	malformedForm: 'malformed_form',
	unsupportedType: 'unsupported_type',
} as const
export type BodyProblem = (typeof BODY_PROBLEM)[keyof typeof BODY_PROBLEM]

export class RequestBodyError extends Error {
	constructor(readonly problem: BodyProblem) {
		super(problem)
	}
}

/** Form fields by name; a name sent more than once has its values in order, as a list. */
export type FormFields = Record<string, string | string[]>

export type RequestBody =
	| { type: 'empty' }
	| { type: 'json'; text: string; value: unknown }
	| { type: 'form'; fields: FormFields }
	| { type: 'multipart'; bytes: Uint8Array<ArrayBuffer>; contentType: string; form: FormData; fields: FormFields; files: ReadonlySet<string> }
	| { type: 'text'; text: string }

export const CONTENT_TYPE = {
	json: 'application/json',
	form: 'application/x-www-form-urlencoded',
	multipart: 'multipart/form-data',
	text: 'text/plain',
} as const

/** The media type of a `content-type` header, lower-cased and without its parameters ('' when absent). */
export function mediaType(contentType: string | null): string {
	return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()
}

/** `application/json` and the structured `+json` types (`application/merge-patch+json`, …). */
const isJsonType = (type: string) => type === CONTENT_TYPE.json || (type.startsWith('application/') && type.endsWith('+json'))

/** A check a body must pass before more than `bytes` of it are read (a caller's right to send that much). */
export type BeforeReadingPast = { bytes: number; check(): Promise<void> }

/**
 * The body's bytes, never more than `maxBytes`: a declared length above it is refused before
 * anything is read, and reading stops at the first chunk past it. With `beforePast`, its check runs
 * before more than its `bytes` are read: at once when the declared length says the body is larger,
 * else when the chunks read pass it.
 */
export async function readBodyBytes(request: Request, maxBytes: number, beforePast?: BeforeReadingPast): Promise<Uint8Array<ArrayBuffer>> {
	const declaredText = request.headers.get('content-length')
	const declared = Number(declaredText ?? '')
	if (Number.isFinite(declared) && declared > maxBytes) throw new RequestBodyError(BODY_PROBLEM.tooLarge)
	let checked = false
	if (beforePast && Number.isFinite(declared) && declared > beforePast.bytes) {
		await beforePast.check()
		checked = true
	}
	if (!request.body) return new Uint8Array()
	if (declaredText !== null && Number.isFinite(declared) && !request.headers.has('transfer-encoding')) {
		// A declared length bounds what the HTTP server reads, so the body is read whole, natively. A
		// stream reader would cost a 256 KB buffer per request (Bun), the garbage that made a busy
		// node collect every few dozen calls (docs/performance.md). Only a Request built in the
		// process can carry more than it declares: it is still refused past either limit, once read.
		const bytes = await request.bytes()
		if (bytes.byteLength > maxBytes) throw new RequestBodyError(BODY_PROBLEM.tooLarge)
		if (beforePast && !checked && bytes.byteLength > beforePast.bytes) await beforePast.check()
		return bytes
	}
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let length = 0
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			length += value.byteLength
			if (length > maxBytes) throw new RequestBodyError(BODY_PROBLEM.tooLarge)
			if (beforePast && !checked && length > beforePast.bytes) {
				await beforePast.check()
				checked = true
			}
			chunks.push(value)
		}
	} catch (error) {
		await reader.cancel().catch(() => {})
		throw error
	}
	if (chunks.length === 1) return chunks[0]! as Uint8Array<ArrayBuffer>
	const bytes = new Uint8Array(length)
	let offset = 0
	for (const chunk of chunks) {
		bytes.set(chunk, offset)
		offset += chunk.byteLength
	}
	return bytes
}

/** How often `needle` occurs in a text or buffer, counting (natively) no further than `limit` + 1. */
function occurrencesUpTo<Needle extends string | Uint8Array>(haystack: { indexOf(needle: Needle, from?: number): number }, needle: Needle, limit: number): number {
	let count = 0
	for (let at = haystack.indexOf(needle); at !== -1 && count <= limit; at = haystack.indexOf(needle, at + needle.length)) count++
	return count
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/**
 * Whether JSON text opens more than `limit` arrays or objects inside one another. One pass over
 * the text, skipping string contents (and the character after each backslash in them); it stops
 * at the first level too deep. Text that is not JSON gets an answer too, and `JSON.parse` refuses it.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
	// Most bodies, however long, open few arrays and objects: counting them (natively) settles it.
	if (occurrencesUpTo(text, '[', limit) + occurrencesUpTo(text, '{', limit) <= limit) return false
	let depth = 0
	let inString = false
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index)
		if (inString) {
			if (code === BACKSLASH) index++
			else if (code === QUOTE) inString = false
		} else if (code === QUOTE) {
			inString = true
		} else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
			if (++depth > limit) return true
		} else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
			depth--
		}
	}
	return false
}

const decoder = new TextDecoder()

export const decodeText = (bytes: Uint8Array) => decoder.decode(bytes)

/** JSON text as a value: the nesting is checked on the text first, then it is parsed. */
export function parseJsonText(text: string): unknown {
	if (nestsDeeperThan(text)) throw new RequestBodyError(BODY_PROBLEM.tooDeep)
	try {
		return JSON.parse(text)
	} catch {
		throw new RequestBodyError(BODY_PROBLEM.invalidJson)
	}
}

/** Fields gathered in one pass: a repeated name's values are pushed onto one list, never copied. */
function gatherFields(entries: Iterable<[string, string]>): FormFields {
	const gathered = new Map<string, string | string[]>()
	for (const [name, value] of entries) {
		const previous = gathered.get(name)
		if (previous === undefined) gathered.set(name, value)
		else if (Array.isArray(previous)) previous.push(value)
		else gathered.set(name, [previous, value])
	}
	// Own data properties even for names such as `__proto__`: nothing reaches a prototype.
	return Object.fromEntries(gathered)
}

const AMPERSAND = Buffer.from('&')

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** `a=1&b=2` as fields, refused past `MAX_FORM_FIELDS` before any is decoded. */
export function parseUrlEncoded(bytes: Uint8Array): FormFields {
	if (occurrencesUpTo(asBuffer(bytes), AMPERSAND, MAX_FORM_FIELDS) >= MAX_FORM_FIELDS) throw new RequestBodyError(BODY_PROBLEM.tooManyFields)
	return gatherFields(new URLSearchParams(decodeText(bytes)))
}

/** The boundary parameter of a multipart content type, unquoted; undefined when there is none. */
function multipartBoundary(contentType: string): string | undefined {
	const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType)
	return match ? match[1] ?? match[2] : undefined
}

/**
 * A multipart body as its text fields and the names of its file parts, with the parsed form kept
 * for the relay's uploads. The parts are counted on the bytes (each begins with `--boundary`)
 * before the form is parsed.
 */
export async function parseMultipart(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<Extract<RequestBody, { type: 'multipart' }>> {
	const boundary = multipartBoundary(contentType)
	if (!boundary) throw new RequestBodyError(BODY_PROBLEM.malformedForm)
	// The closing delimiter starts like the others: MAX_FORM_FIELDS parts carry one more.
	if (occurrencesUpTo(asBuffer(bytes), Buffer.from(`--${boundary}`), MAX_FORM_FIELDS + 1) > MAX_FORM_FIELDS + 1) throw new RequestBodyError(BODY_PROBLEM.tooManyFields)
	let form: FormData
	try {
		form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData()
	} catch {
		throw new RequestBodyError(BODY_PROBLEM.malformedForm)
	}
	const files = new Set<string>()
	const texts: [string, string][] = []
	for (const [name, value] of form.entries()) {
		if (typeof value === 'string') texts.push([name, value])
		else files.add(name)
	}
	return { type: 'multipart', bytes, contentType, form, fields: gatherFields(texts), files }
}

/**
 * The body by its content type. A body sent without one is read as JSON when it has any content
 * (clients and scripts often leave the header out); another type than the four is refused.
 */
export async function readRequestBody(request: Request, maxBytes: number): Promise<RequestBody> {
	const contentType = request.headers.get('content-type') ?? ''
	const type = mediaType(contentType)
	if (type && !isJsonType(type) && type !== CONTENT_TYPE.form && type !== CONTENT_TYPE.multipart && type !== CONTENT_TYPE.text) {
		throw new RequestBodyError(BODY_PROBLEM.unsupportedType)
	}
	const bytes = await readBodyBytes(request, maxBytes)
	if (type === CONTENT_TYPE.multipart) return parseMultipart(bytes, contentType)
	if (type === CONTENT_TYPE.form) return { type: 'form', fields: parseUrlEncoded(bytes) }
	const text = decodeText(bytes)
	if (type === CONTENT_TYPE.text) return { type: 'text', text }
	if (!text.trim()) {
		if (type) throw new RequestBodyError(BODY_PROBLEM.invalidJson)
		return { type: 'empty' }
	}
	return { type: 'json', text, value: parseJsonText(text) }
}
