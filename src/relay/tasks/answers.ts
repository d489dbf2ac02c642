/**
 * What task clients are answered in their own shapes: midjourney-proxy's `{code, description,
 * result, properties}` and the Suno API's `{code, message, data}`. Failures keep their HTTP status.
 */
import { type ErrorResponder, requestIdHeader } from '../errors'

/** midjourney-proxy's codes for a request it refused (4) and for its own failure (5). */
const MJ_REQUEST_ERROR = 4
const MJ_UNKNOWN_ERROR = 5
const SERVER_ERROR = 500

export const midjourneyErrorResponse: ErrorResponder = (error, requestId) => Response.json(
	{ code: error.status >= SERVER_ERROR ? MJ_UNKNOWN_ERROR : MJ_REQUEST_ERROR, description: error.message, result: null, properties: {} },
	{ status: error.status, headers: requestIdHeader(requestId) },
)

export const sunoErrorResponse: ErrorResponder = (error, requestId) => Response.json(
	{ code: error.code ?? 'error', message: error.message, data: null },
	{ status: error.status, headers: requestIdHeader(requestId) },
)

export const SUNO_SUCCESS = 'success'

export const sunoAnswer = (data: unknown) => Response.json({ code: SUNO_SUCCESS, message: '', data })
