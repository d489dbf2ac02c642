/**
 * Errors in Claude's shape, `{type:'error', error:{type, message}}`, with Claude's error type for
 * the status. The OpenAI pipeline answers errors in OpenAI's shape; they are reshaped here.
 */
import type { Logger } from '@/lib/logger'
import { RelayError, relayErrors } from '../../errors'

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

export function claudeErrorType(status: number) {
	return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}

export function claudeErrorBody(status: number, message: string) {
	return { type: 'error', error: { type: claudeErrorType(status), message } }
}

export function claudeErrorResponse(status: number, message: string, headers?: HeadersInit): Response {
	return Response.json(claudeErrorBody(status, message), { status, headers })
}

export function claudeFailure(error: unknown, logger: Logger): Response {
	if (error instanceof RelayError) return claudeErrorResponse(error.status, error.message)
	logger.error('claude-format call failed', { error: String(error) })
	const internal = relayErrors.internal()
	return claudeErrorResponse(internal.status, internal.message)
}

/** An OpenAI-format error answer of the pipeline, reshaped; the request id header is kept. */
export async function claudeErrorFromOpenAI(response: Response): Promise<Response> {
	let message = `upstream error ${response.status}`
	try {
		const parsed = (await response.json()) as { error?: { message?: unknown } }
		if (typeof parsed.error?.message === 'string') message = parsed.error.message
	} catch {
		// Keep the generic message.
	}
	const requestId = response.headers.get('x-ferry-request-id')
	return claudeErrorResponse(response.status, message, requestId ? { 'x-ferry-request-id': requestId } : undefined)
}
