/**
 * How a relay call reads its body: through the one bounded reader (`src/lib/request-body.ts`),
 * after the caller is known. The bytes are read within `MAX_BODY_MB`; a body over
 * `LARGE_BODY_BYTES` is parsed only for a caller with quota to spend (`BodyGate.admitLarge`), so a
 * token without a balance cannot make the server parse megabytes for nothing. Refusals answer in
 * English, in the caller's format.
 */
import { MESSAGES } from '@shared/api'
import { BODY_PROBLEM, type BodyProblem, decodeText, parseJsonText, parseMultipart, readBodyBytes, RequestBodyError } from '@/lib/request-body'
import { RelayError, relayErrors } from '../errors'

/** Bodies larger than this are parsed only for a caller who could pay for the call. */
export const LARGE_BODY_BYTES = 1024 * 1024

export interface BodyGate {
	maxBytes: number
	/** Refuses (throws the caller's RelayError) a caller who may not have a large body parsed. */
	admitLarge(): Promise<void>
}

const REFUSALS: Record<BodyProblem, () => RelayError> = {
	[BODY_PROBLEM.tooLarge]: () => new RelayError(413, MESSAGES.bodyTooLarge, 'invalid_request_error', 'request_too_large'),
	[BODY_PROBLEM.tooDeep]: () => relayErrors.badRequest(MESSAGES.jsonTooDeep),
	[BODY_PROBLEM.invalidJson]: () => relayErrors.badRequest(MESSAGES.invalidJson),
	[BODY_PROBLEM.tooManyFields]: () => relayErrors.badRequest(MESSAGES.tooManyFields),
	[BODY_PROBLEM.malformedForm]: () => relayErrors.badRequest('the multipart/form-data body is malformed'),
	[BODY_PROBLEM.unsupportedType]: () => new RelayError(415, MESSAGES.unsupportedContentType, 'invalid_request_error', 'unsupported_media_type'),
}

/** Runs `read`, answering the reader's refusals as the relay's errors. */
async function refusingAsRelay<Value>(read: () => Promise<Value>): Promise<Value> {
	try {
		return await read()
	} catch (error) {
		throw error instanceof RequestBodyError ? REFUSALS[error.problem]() : error
	}
}

async function gatedBytes(request: Request, gate: BodyGate) {
	const bytes = await readBodyBytes(request, gate.maxBytes)
	if (bytes.byteLength > LARGE_BODY_BYTES) await gate.admitLarge()
	return bytes
}

/** A JSON body, whatever its declared type, as sent (text) and as a value. */
export function readJsonCall(request: Request, gate: BodyGate): Promise<{ text: string; value: unknown }> {
	return refusingAsRelay(async () => {
		const text = decodeText(await gatedBytes(request, gate))
		return { text, value: parseJsonText(text) }
	})
}

/** A `multipart/form-data` upload: its text fields, file part names and the form, with its bytes. */
export function readUploadCall(request: Request, gate: BodyGate) {
	return refusingAsRelay(async () => {
		const contentType = request.headers.get('content-type') ?? ''
		if (!/^multipart\/form-data\s*;/i.test(contentType)) throw relayErrors.badRequest('expected a multipart/form-data body (with its boundary)')
		return parseMultipart(await gatedBytes(request, gate), contentType)
	})
}
