/**
 * Turns every failure under `/api` into the envelope `{ success: false, message }` with the right
 * HTTP status. Nothing a client sends produces a 500: unexpected errors are logged (without the
 * request body) and answered with the generic server-error message.
 */
import { Elysia } from 'elysia'
import { MESSAGES } from '@shared/api'
import { BalanceLimitError } from '@/billing/ledger'
import type { Logger } from '@/lib/logger'
import { ApiError } from '../errors'

function reply(status: number, message: string) {
	return Response.json({ success: false, message }, { status })
}

/** A schema's first issue, as Elysia keeps it (`valueError`): zod's, with the path as a list of keys. */
type Issue = { message?: unknown; path?: unknown }

/**
 * The message for the first issue. It is read from the issue the validation already found:
 * `error.all` would validate the body a second time, and the more a body is wrong (a list of a
 * million wrong elements), the longer that takes.
 */
function validationMessage(issue: Issue | undefined) {
	if (typeof issue?.message !== 'string' || !issue.message) return MESSAGES.invalidParameter
	if (issue.message.startsWith('Invalid input') || issue.message.startsWith('Invalid option')) {
		const path = Array.isArray(issue.path) ? issue.path.join('.') : ''
		return path ? `${MESSAGES.invalidParameter}: ${path}` : MESSAGES.invalidParameter
	}
	return issue.message
}

export function envelopeErrors(logger: Logger) {
	return new Elysia({ name: 'envelope-errors' }).onError({ as: 'global' }, ({ code, error, request }) => {
		if (error instanceof ApiError) return reply(error.status, error.message)
		// A credit that would pass the balance maximum is a business refusal, wherever it came from.
		if (error instanceof BalanceLimitError) return reply(200, error.message)
		switch (code) {
			case 'VALIDATION':
				return reply(400, validationMessage(error.valueError as Issue | undefined))
			case 'PARSE':
				// Elysia wraps what the parse hook threw (`parseApiJson`: bad or too deep JSON).
				return reply(400, error.cause instanceof ApiError ? error.cause.message : MESSAGES.invalidJson)
			case 'NOT_FOUND':
				return reply(404, MESSAGES.notFound)
			case 'INVALID_COOKIE_SIGNATURE':
			case 'INVALID_FILE_TYPE':
				return reply(400, MESSAGES.invalidParameter)
		}
		const status = (error as { status?: unknown }).status
		if (status === 413) return reply(413, MESSAGES.bodyTooLarge)
		if (typeof status === 'number' && status >= 400 && status < 500) return reply(status, MESSAGES.invalidParameter)
		logger.error('unhandled error', { method: request.method, path: new URL(request.url).pathname, error: String(error) })
		return reply(500, MESSAGES.serverError)
	})
}
