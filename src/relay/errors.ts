import type { Logger } from '@/lib/logger'

/**
 * Relay failures. Every failure a client can see is a `RelayError` with an HTTP status, a message
 * safe to show, and an OpenAI-style type and code; each client format renders it in its own shape.
 */
export class RelayError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly type: string = 'invalid_request_error',
		readonly code: string | null = null,
	) {
		super(message)
	}
}

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
	groupNotAllowed: (group: string) => new RelayError(403, `the group ${group} is not available to this user`, 'invalid_request_error', 'group_not_allowed'),
	modelNotAllowed: (model: string) => new RelayError(403, `this API token may not use the model ${model}`, 'invalid_request_error', 'model_not_allowed'),
	modelUnpriced: (model: string) => new RelayError(400, `the model ${model} has no price set; ask the administrator to set its ratio or price`, 'invalid_request_error', 'model_price_unset'),
	/** The channel type (pinned, or of every channel serving the model) lacks the endpoint: asking again will not help. */
	endpointUnsupported: (endpoint: string, stream: boolean, model?: string) => {
		const what = stream ? `streaming ${endpoint}` : endpoint
		const message = model ? `no channel serving the model ${model} supports ${what}` : `this channel type does not support ${what}`
		return new RelayError(400, message, 'invalid_request_error', 'endpoint_not_supported')
	},
	noChannel: (group: string, model: string) => new RelayError(503, `no available channels for model ${model} in group ${group}`, 'server_error', 'model_not_found'),
	insufficientUserQuota: () => new RelayError(403, 'insufficient user quota', 'insufficient_quota', 'insufficient_user_quota'),
	insufficientTokenQuota: () => new RelayError(403, 'insufficient token quota', 'insufficient_quota', 'insufficient_token_quota'),
	badRequest: (message: string) => new RelayError(400, message, 'invalid_request_error', 'invalid_request'),
	notImplemented: (path: string) => new RelayError(501, `${path} is not supported by this gateway yet`, 'invalid_request_error', 'not_implemented'),
	modelNotFound: (model: string) => new RelayError(404, `the model ${model} does not exist or you do not have access to it`, 'invalid_request_error', 'model_not_found'),
	upstreamUnavailable: () => new RelayError(502, 'the upstream service did not answer', 'upstream_error', 'bad_gateway'),
	internal: () => new RelayError(500, 'the gateway failed to handle the request', 'server_error', 'internal_error'),
}

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
	if (error instanceof RelayError) return respond(error, requestId)
	logger.error('relay call failed', { requestId, error: String(error) })
	return respond(relayErrors.internal(), requestId)
}
