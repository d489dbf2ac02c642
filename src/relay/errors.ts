import { inEnglish, type Language, type LocalizedMessage, nested, renderMessage, withValues, type ServerMessage } from '@shared/messages'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { MESSAGES } from '@shared/api'
import { nowSeconds } from '@/lib/clock'
import type { Logger } from '@/lib/logger'
import { BODY_PROBLEM, type BodyProblem, RequestBodyError } from '@/lib/request-body'
import type { GoogleError } from './formats/gemini/errors'

/**
 * Relay failures. Every failure a client can see is a `RelayError` with an HTTP status, a message
 * safe to show, and an OpenAI-style type and code; each client format renders it in its own shape.
 */
export class RelayError extends Error {
	/** When the client may try again (a limit's window, an upstream's ask), sent as `Retry-After` whatever the format. */
	retryAfterSeconds?: number
	/** A Google upstream's status name and error details, already made safe to show (upstream/google-error.ts): a Gemini client's answer carries them. */
	google?: GoogleError

	constructor(
		readonly status: number,
		message: string,
		readonly type: string = 'invalid_request_error',
		readonly code: string | null = null,
		/** Ferry's own refusal as a catalogue message, for the console's playground (the message is its English). */
		readonly wording?: LocalizedMessage,
	) {
		super(message)
	}
}

/** A refusal of Ferry's own: English for API clients, worded in the console's language by the playground. */
export const wordedRelayError = (status: number, message: ServerMessage, type: string, code: string | null) =>
	new RelayError(status, inEnglish(message), type, code, nested(message))

/** The error worded in `language` when Ferry wrote it; an upstream's message stays as it is. */
export function inLanguage(error: RelayError, language: Language): RelayError {
	if (!error.wording) return error
	const worded = new RelayError(error.status, renderMessage(language, error.wording), error.type, error.code)
	worded.retryAfterSeconds = error.retryAfterSeconds
	return worded
}

const supported = (endpoint: string, stream: boolean) => (stream ? withValues(RELAY_MESSAGES.streaming, { endpoint }) : endpoint)

export const relayErrors = {
	missingKey: () => new RelayError(401, 'no API key provided: send it as "Authorization: Bearer sk-..."', 'invalid_request_error', 'missing_api_key'),
	invalidKey: () => new RelayError(401, 'invalid API key', 'invalid_request_error', 'invalid_api_key'),
	tokenDisabled: () => new RelayError(401, 'this API token is disabled', 'invalid_request_error', 'token_disabled'),
	tokenExpired: () => new RelayError(401, 'this API token has expired', 'invalid_request_error', 'token_expired'),
	tokenExhausted: () => new RelayError(401, 'this API token has used up its quota', 'invalid_request_error', 'token_exhausted'),
	userDisabled: () => new RelayError(403, 'the user of this API token is disabled', 'invalid_request_error', 'user_disabled'),
	addressNotAllowed: () => new RelayError(403, 'this API token may not be used from your address', 'invalid_request_error', 'ip_not_allowed'),
	channelPinForbidden: () => new RelayError(403, 'ordinary users cannot specify a channel', 'invalid_request_error', 'channel_pin_forbidden'),
	channelNotFound: () => new RelayError(403, 'invalid channel ID', 'invalid_request_error', 'channel_not_found'),
	channelDisabled: () => new RelayError(403, 'channel disabled', 'invalid_request_error', 'channel_disabled'),
	groupNotAllowed: (group: string) => wordedRelayError(403, withValues(RELAY_MESSAGES.groupNotAllowed, { group }), 'invalid_request_error', 'group_not_allowed'),
	modelNotAllowed: (model: string) => new RelayError(403, `this API token may not use the model ${model}`, 'invalid_request_error', 'model_not_allowed'),
	modelUnpriced: (model: string) => wordedRelayError(400, withValues(RELAY_MESSAGES.modelUnpriced, { model }), 'invalid_request_error', 'model_price_unset'),
	/** The channel type (pinned, or of every channel serving the model) lacks the endpoint: asking again will not help. */
	endpointUnsupported: (endpoint: string, stream: boolean, model?: string) => {
		const what = supported(endpoint, stream)
		const message = model ? withValues(RELAY_MESSAGES.noChannelSupports, { model, what }) : withValues(RELAY_MESSAGES.channelTypeUnsupported, { what })
		return wordedRelayError(400, message, 'invalid_request_error', 'endpoint_not_supported')
	},
	/** Channels of the group list the model but none can take the call now (disabled, failed, busy): a client may try again. */
	noChannel: (group: string, model: string) => wordedRelayError(503, withValues(RELAY_MESSAGES.noChannel, { group, model }), 'server_error', 'model_not_found'),
	/**
	 * No channel of any group the caller may be routed in lists the model, enabled or not: for this
	 * caller the model does not exist, and a client must not retry (the providers answer 404 too).
	 */
	modelUnlisted: (group: string, model: string) => wordedRelayError(404, withValues(RELAY_MESSAGES.noChannel, { group, model }), 'invalid_request_error', 'model_not_found'),
	insufficientUserQuota: () => wordedRelayError(403, RELAY_MESSAGES.insufficientUserQuota, 'insufficient_quota', 'insufficient_user_quota'),
	insufficientTokenQuota: () => new RelayError(403, 'insufficient token quota', 'insufficient_quota', 'insufficient_token_quota'),
	/**
	 * A spend window of the token has no room for the call's hold: refused like a token out of
	 * quota (403, which clients do not retry), with `Retry-After` saying when the window's period ends.
	 */
	tokenWindowExhausted: ({ seconds, quota, remaining, resetsAt }: { seconds: number; quota: number; remaining: number; resetsAt: number | null }) => {
		const resets = resetsAt === null ? '' : `; it resets at ${new Date(resetsAt * 1000).toISOString()}`
		const error = new RelayError(403, `insufficient token quota: the token's spend limit of ${quota} quota per ${seconds} seconds has ${remaining} left, less than this call may cost${resets}`,
			'insufficient_quota', 'token_window_exhausted')
		if (resetsAt !== null) error.retryAfterSeconds = Math.max(1, resetsAt - nowSeconds())
		return error
	},
	/** Every channel that could take the call limits its prompt (max_input_tokens) below this one's. */
	promptTooLong: (tokens: number, model: string, limit: number) =>
		wordedRelayError(400, withValues(RELAY_MESSAGES.promptTooLong, { tokens, model, limit }), 'invalid_request_error', 'context_length_exceeded'),
	badRequest: (message: string) => new RelayError(400, message, 'invalid_request_error', 'invalid_request'),
	videoPricedPerSecond: (model: string) => new RelayError(400, `the video model ${model} has no price per second (ModelPrice) in this gateway`, 'invalid_request_error', 'model_price_error'),
	notImplemented: (path: string) => new RelayError(501, `${path} is not supported by this gateway yet`, 'invalid_request_error', 'not_implemented'),
	modelNotFound: (model: string) => wordedRelayError(404, withValues(RELAY_MESSAGES.modelNotFound, { model }), 'invalid_request_error', 'model_not_found'),
	upstreamUnavailable: () => wordedRelayError(502, RELAY_MESSAGES.upstreamUnavailable, 'upstream_error', 'bad_gateway'),
	internal: () => wordedRelayError(500, RELAY_MESSAGES.internal, 'server_error', 'internal_error'),
}

/** The body reader's refusals (src/lib/request-body.ts), in the relay's English. */
const BODY_REFUSALS: Record<BodyProblem, () => RelayError> = {
	[BODY_PROBLEM.tooLarge]: () => new RelayError(413, MESSAGES.bodyTooLarge, 'invalid_request_error', 'request_too_large'),
	[BODY_PROBLEM.tooDeep]: () => relayErrors.badRequest(MESSAGES.jsonTooDeep),
	[BODY_PROBLEM.invalidJson]: () => relayErrors.badRequest(MESSAGES.invalidJson),
	[BODY_PROBLEM.tooManyFields]: () => relayErrors.badRequest(MESSAGES.tooManyFields),
	[BODY_PROBLEM.malformedForm]: () => relayErrors.badRequest('the multipart/form-data body is malformed'),
	[BODY_PROBLEM.unsupportedType]: () => new RelayError(415, MESSAGES.unsupportedContentType, 'invalid_request_error', 'unsupported_media_type'),
}

/** The body reader's refusal as the relay's error; any other error as it is. */
export const asRelayError = (error: unknown) => (error instanceof RequestBodyError ? BODY_REFUSALS[error.problem]() : error)

function openAIErrorBody(error: RelayError) {
	return { error: { message: error.message, type: error.type, param: null, code: error.code } }
}

/** A failure as one client format answers it; the request id, when known, goes in a header. */
export type ErrorResponder = (error: RelayError, requestId?: string) => Response

export function requestIdHeader(requestId: string | undefined) {
	return requestId ? { 'x-ferry-request-id': requestId } : undefined
}

export const openAIErrorResponse: ErrorResponder = (error, requestId) => Response.json(openAIErrorBody(error), { status: error.status, headers: requestIdHeader(requestId) })

/** Any failure in a client format's shape: a RelayError as it is, anything else logged and hidden. */
export function relayFailure(error: unknown, logger: Logger, respond: ErrorResponder, requestId?: string): Response {
	if (error instanceof RelayError) {
		const response = respond(error, requestId)
		if (error.retryAfterSeconds !== undefined) response.headers.set('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))))
		return response
	}
	logger.error('relay call failed', { requestId, error: String(error) })
	return respond(relayErrors.internal(), requestId)
}
