/**
 * How a relay call reads its body: through the one bounded reader (`src/lib/request-body.ts`),
 * after the caller is known. The bytes are read within `MAX_BODY_MB`; a body over
 * `LARGE_BODY_BYTES` is read (and parsed) only for a caller with quota to spend (`BodyGate.admitLarge`),
 * so a token without a balance cannot make the server take in and parse megabytes for nothing. Refusals answer in
 * English, in the caller's format.
 */
import { decodeText, parseJsonText, parseMultipart, readBodyBytes } from '@/lib/request-body'
import { asRelayError, relayErrors } from '../errors'

/** Bodies larger than this are read only for a caller who could pay for the call. */
export const LARGE_BODY_BYTES = 1024 * 1024

export interface BodyGate {
	maxBytes: number
	/** Refuses (throws the caller's RelayError) a caller who may not have a large body parsed. */
	admitLarge(): Promise<void>
}

/** Runs `read`, answering the reader's refusals as the relay's errors. */
async function refusingAsRelay<Value>(read: () => Promise<Value>): Promise<Value> {
	try {
		return await read()
	} catch (error) {
		throw asRelayError(error)
	}
}

/** The body's bytes within the gate: more than `LARGE_BODY_BYTES` read only for a caller it admits. */
export function readGatedBytes(request: Request, gate: BodyGate): Promise<Uint8Array<ArrayBuffer>> {
	return refusingAsRelay(async () => {
		return readBodyBytes(request, gate.maxBytes, { bytes: LARGE_BODY_BYTES, check: gate.admitLarge })
	})
}

/** JSON bytes, whatever their declared type, as sent (text) and as a value. */
export function parseCallBody(bytes: Uint8Array): { text: string; value: unknown } {
	try {
		const text = decodeText(bytes)
		return { text, value: parseJsonText(text) }
	} catch (error) {
		throw asRelayError(error)
	}
}

/** A JSON body, whatever its declared type, as sent (text) and as a value. */
export async function readJsonCall(request: Request, gate: BodyGate): Promise<{ text: string; value: unknown }> {
	return parseCallBody(await readGatedBytes(request, gate))
}

/** A `multipart/form-data` upload: its text fields, file part names and the form, with its bytes. */
export function readUploadCall(request: Request, gate: BodyGate) {
	return refusingAsRelay(async () => {
		const contentType = request.headers.get('content-type') ?? ''
		if (!/^multipart\/form-data\s*;/i.test(contentType)) throw relayErrors.badRequest('expected a multipart/form-data body (with its boundary)')
		return parseMultipart(await readGatedBytes(request, gate), contentType)
	})
}
