/**
 * Errors in Gemini's shape, `{error: {code, message, status, details?}}`, with Google's status names
 * and, for an upstream's error, the details it gave that a client may see (upstream/google-error.ts).
 * A client told to wait (`Retry-After`: a call limit's window, an upstream's) gets a `RetryInfo`
 * too, which Google's clients read to back off.
 */
import { type ErrorResponder, type RelayError, requestIdHeader } from '../../errors'

const STATUS_NAMES: Record<number, string> = {
	400: 'INVALID_ARGUMENT',
	401: 'UNAUTHENTICATED',
	403: 'PERMISSION_DENIED',
	404: 'NOT_FOUND',
	409: 'ABORTED',
	429: 'RESOURCE_EXHAUSTED',
	499: 'CANCELLED',
	500: 'INTERNAL',
	501: 'UNIMPLEMENTED',
	502: 'UNAVAILABLE',
	503: 'UNAVAILABLE',
	504: 'DEADLINE_EXCEEDED',
}

export const ERROR_DETAIL_TYPE_PREFIX = 'type.googleapis.com/google.rpc.'
export const RETRY_INFO_TYPE = `${ERROR_DETAIL_TYPE_PREFIX}RetryInfo`
/** A `google.protobuf.Duration` in JSON: whole seconds, up to nine decimals, and `s`. */
export const DURATION = /^(\d{1,12})(\.\d{1,9})?s$/

/** One `google.rpc` error detail: its `@type` and its fields. */
export type GoogleErrorDetail = { '@type': string } & Record<string, unknown>

/** A Google upstream's error beyond its message: the status name it gave, and the details a client may see. */
export interface GoogleError {
	status?: string
	details: GoogleErrorDetail[]
}

export function geminiErrorBody(code: number, message: string, google?: GoogleError) {
	const status = google?.status ?? STATUS_NAMES[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION')
	return { error: { code, message, status, ...(google && google.details.length > 0 ? { details: google.details } : {}) } }
}

/** The error's Google status and details, with a `RetryInfo` when the client is told to wait and none says so yet. */
function googleErrorOf(error: RelayError): GoogleError | undefined {
	const google = error.google
	if (error.retryAfterSeconds === undefined || google?.details.some((detail) => detail['@type'] === RETRY_INFO_TYPE)) return google
	const retryInfo = { '@type': RETRY_INFO_TYPE, retryDelay: `${Math.max(1, Math.ceil(error.retryAfterSeconds))}s` }
	return { status: google?.status, details: [...(google?.details ?? []), retryInfo] }
}

export const geminiErrorResponse: ErrorResponder = (error, requestId) => Response.json(geminiErrorBody(error.status, error.message, googleErrorOf(error)), {
	status: error.status,
	headers: requestIdHeader(requestId),
})
