/**
 * What OpenAI-format clients send. Only the fields the gateway reads are checked; everything else
 * passes through to the upstream untouched, so new OpenAI parameters work without a release.
 *
 * Hand-written rather than zod: this runs on every relay call, and a schema library's generic
 * object handling cost about a seventh of the relay's CPU in `bun run bench`.
 */
import { relayErrors } from '../../errors'
import { MEDIA_ENDPOINTS, type RelayEndpoint } from '../../providers/types'
import { isObject } from '../json'
import type { Upload } from '../media/multipart'
import { checkMediaRequest, isMediaEndpoint } from '../media/requests'
import { checkVideoRequest } from '../videos/requests'

/** A checked request body: an object naming its model. */
export type OpenAIRequest = Record<string, unknown> & { model: string }

const MODEL_MAX_LENGTH = 200

function fail(message: string): never {
	throw relayErrors.badRequest(message)
}

function optionalBoolean(body: Record<string, unknown>, field: string) {
	const value = body[field]
	if (value !== undefined && value !== null && typeof value !== 'boolean') fail(`${field}: expected a boolean`)
}

/**
 * The largest token limit a request may set. No model comes near it, and the hold for it stays an
 * exact integer whatever the ratios (`max_tokens: 1e308` passed `Number.isInteger` and made a hold
 * the ledger could not write: a 500).
 */
export const MAX_TOKEN_LIMIT = 2 ** 31 - 1

function optionalTokenLimit(body: Record<string, unknown>, field: string) {
	const value = body[field]
	if (value !== undefined && value !== null && !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TOKEN_LIMIT)) {
		fail(`${field}: expected a whole number of tokens up to ${MAX_TOKEN_LIMIT}`)
	}
}

function isPrompt(value: unknown) {
	return typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number' || (Array.isArray(item) && item.every((token) => typeof token === 'number'))))
}

/** Endpoints answered whole: `stream` and its options mean nothing there. */
const WHOLE_ANSWER_ENDPOINTS: ReadonlySet<RelayEndpoint> = new Set(['embeddings', 'rerank', ...MEDIA_ENDPOINTS, 'videos'])

export const isStreamable = (endpoint: RelayEndpoint) => !WHOLE_ANSWER_ENDPOINTS.has(endpoint)

/** Rerank documents are texts or `{text}` objects (Jina's and Cohere's shared form). */
function checkRerank(body: Record<string, unknown>) {
	if (typeof body.query !== 'string' || body.query === '') fail('query: query is required')
	const documents = body.documents
	if (!Array.isArray(documents) || documents.length === 0) fail('documents: expected a non-empty list of texts or {text} objects')
	documents.forEach((document, index) => {
		if (typeof document !== 'string' && !(isObject(document) && typeof document.text === 'string')) fail(`documents.${index}: expected a text or a {text} object`)
	})
	const topN = body.top_n
	if (topN !== undefined && topN !== null && !(Number.isInteger(topN) && (topN as number) > 0)) fail('top_n: expected a positive whole number')
	optionalBoolean(body, 'return_documents')
}

/**
 * Checks a request body for an endpoint (with the upload it came with, if any); throws a bad-request
 * RelayError with a message naming the field.
 */
export function checkOpenAIRequest(endpoint: RelayEndpoint, body: unknown, upload?: Upload): OpenAIRequest {
	if (!isObject(body)) fail('the request body must be a JSON object')
	const model = body.model
	if (typeof model !== 'string' || model.trim() === '') fail('model: model is required')
	if (model.length > MODEL_MAX_LENGTH) fail('model: too long')
	if (endpoint === 'chat') {
		const messages = body.messages
		if (!Array.isArray(messages)) fail('messages: messages must be a list of messages')
		if (messages.length === 0) fail('messages: messages must not be empty')
		messages.forEach((message, index) => {
			if (!isObject(message) || typeof message.role !== 'string') fail(`messages.${index}: each message needs a role`)
			const content = message.content
			if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) fail(`messages.${index}.content: expected text or a list of parts`)
		})
		optionalTokenLimit(body, 'max_completion_tokens')
		if (body.tools !== undefined && body.tools !== null && !Array.isArray(body.tools)) fail('tools: expected a list')
	}
	if (endpoint === 'completions' && !isPrompt(body.prompt)) fail('prompt: expected text or a list of texts or tokens')
	if (endpoint === 'embeddings' && !isPrompt(body.input)) fail('input: expected text or a list of texts or tokens')
	if (endpoint === 'rerank') checkRerank(body)
	if (isMediaEndpoint(endpoint)) checkMediaRequest(endpoint, body, upload)
	if (endpoint === 'videos') checkVideoRequest(body as OpenAIRequest, upload)
	if (isStreamable(endpoint)) {
		optionalBoolean(body, 'stream')
		optionalTokenLimit(body, 'max_tokens')
		const options = body.stream_options
		if (options !== undefined && options !== null && !isObject(options)) fail('stream_options: expected an object')
	}
	return body as OpenAIRequest
}
