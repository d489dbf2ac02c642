/** Errors in Gemini's shape, `{error: {code, message, status}}`, with Google's status names. */
import { type ErrorResponder, requestIdHeader } from '../../errors'

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

export function geminiErrorBody(code: number, message: string) {
	return { error: { code, message, status: STATUS_NAMES[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } }
}

export const geminiErrorResponse: ErrorResponder = (error, requestId) => Response.json(geminiErrorBody(error.status, error.message), {
	status: error.status,
	headers: requestIdHeader(requestId),
})
