/** Errors in Claude's shape, `{type:'error', error:{type, message}}`, with Claude's error type for the status. */
import { type ErrorResponder, requestIdHeader } from '../../errors'

const TYPE_BY_STATUS: Record<number, string> = {
	400: 'invalid_request_error',
	401: 'authentication_error',
	402: 'billing_error',
	403: 'permission_error',
	404: 'not_found_error',
	413: 'request_too_large',
	429: 'rate_limit_error',
	504: 'timeout_error',
	529: 'overloaded_error',
}

function claudeErrorType(status: number) {
	return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}

export function claudeErrorBody(status: number, message: string) {
	return { type: 'error', error: { type: claudeErrorType(status), message } }
}

export const claudeErrorResponse: ErrorResponder = (error, requestId) => Response.json(claudeErrorBody(error.status, error.message), {
	status: error.status,
	headers: requestIdHeader(requestId),
})
