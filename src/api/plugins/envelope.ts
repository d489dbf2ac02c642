/**
 * Turns every failure under `/api` into the envelope `{ success: false, message }` with the right
 * HTTP status, worded in the caller's language (`../language.ts`). Nothing a client sends produces
 * a 500: unexpected errors are logged (without the request body) and answered with the generic
 * server-error message.
 */
import { Elysia } from 'elysia'
import { API_MESSAGES } from '@shared/api'
import { isCatalogueText, type Language, type MessageValue, renderMessage, type ServerMessage, withValues } from '@shared/messages'
import { QUOTA_LIMIT_MESSAGES } from '@shared/quota-limit'
import { BalanceLimitError } from '@/billing/ledger'
import type { Logger } from '@/lib/logger'
import { ApiError } from '../errors'
import { requestLanguage } from '../language'

function reply(language: Language, status: number, message: ServerMessage) {
	return Response.json({ success: false, message: renderMessage(language, message) }, { status })
}

/** A schema's first issue, as Elysia keeps it (`valueError`): zod's, with the path as a list of keys. */
type Issue = { message?: unknown; path?: unknown; params?: unknown }

/**
 * The message for the first issue. It is read from the issue the validation already found:
 * `error.all` would validate the body a second time, and the more a body is wrong (a list of a
 * million wrong elements), the longer that takes. A schema's own catalogue message is answered
 * with the issue's `params` as its values; zod's built-in wording (English only) is replaced by
 * "invalid parameter" and the field's path.
 */
function validationMessage(issue: Issue | undefined): ServerMessage {
	if (typeof issue?.message === 'string' && isCatalogueText(issue.message)) {
		const params = typeof issue.params === 'object' && issue.params !== null ? issue.params as Record<string, MessageValue> : {}
		return { text: issue.message, values: params }
	}
	const path = Array.isArray(issue?.path) ? issue.path.join('.') : ''
	return path ? withValues(API_MESSAGES.invalidField, { field: path }) : API_MESSAGES.invalidParameter
}

export function envelopeErrors(logger: Logger) {
	return new Elysia({ name: 'envelope-errors' }).onError({ as: 'global' }, ({ code, error, request }) => {
		const language = requestLanguage(request)
		if (error instanceof ApiError) return reply(language, error.status, error.reason)
		// A credit that would pass the balance maximum is a business refusal, wherever it came from.
		if (error instanceof BalanceLimitError) return reply(language, 200, QUOTA_LIMIT_MESSAGES.balanceLimit)
		switch (code) {
			case 'VALIDATION':
				return reply(language, 400, validationMessage(error.valueError as Issue | undefined))
			case 'PARSE':
				// Elysia wraps what the parse hook threw (`parseApiBody`: a body it refused).
				return reply(language, 400, error.cause instanceof ApiError ? error.cause.reason : API_MESSAGES.invalidJson)
			case 'NOT_FOUND':
				return reply(language, 404, API_MESSAGES.notFound)
			case 'INVALID_COOKIE_SIGNATURE':
			case 'INVALID_FILE_TYPE':
				return reply(language, 400, API_MESSAGES.invalidParameter)
		}
		const status = (error as { status?: unknown }).status
		if (status === 413) return reply(language, 413, API_MESSAGES.bodyTooLarge)
		if (typeof status === 'number' && status >= 400 && status < 500) return reply(language, status, API_MESSAGES.invalidParameter)
		logger.error('unhandled error', { method: request.method, path: new URL(request.url).pathname, error: String(error) })
		return reply(language, 500, API_MESSAGES.serverError)
	})
}
