/**
 * The Gemini client format (`/v1beta/models/{model}:{method}`): its methods, its encoder — an answer
 * from a channel that speaks Gemini's API passes on as it came, an OpenAI-format one is turned into
 * Gemini's shape (client-answer.ts) — and the client's own request for such a channel.
 */
import type { NativeRequest } from '../../providers/types'
import { type ConvertedRequest, NO_EXTRAS } from '../canonical'
import type { ClientFormat } from '../client-format'
import { encodedStream } from '../events'
import { isObject } from '../json'
import { geminiAnswerFromOpenAI, geminiStreamEncoder, type GeminiStreamFraming } from './client-answer'
import { openAIChatFromGemini, openAIEmbeddingsFromGemini } from './client-request'

const METHODS = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents'] as const
export type GeminiMethod = (typeof METHODS)[number]

export const isGeminiMethod = (value: string): value is GeminiMethod => (METHODS as readonly string[]).includes(value)

export const isEmbeddingMethod = (method: GeminiMethod) => method === 'embedContent' || method === 'batchEmbedContents'

function geminiAnswer(method: GeminiMethod, answer: Record<string, unknown>, model: string) {
	if (isEmbeddingMethod(method)) {
		const vectors = (Array.isArray(answer.data) ? answer.data : []).map((item: { embedding?: unknown }) => ({ values: item.embedding }))
		return method === 'embedContent' ? { embedding: vectors[0] ?? { values: [] } } : { embeddings: vectors }
	}
	return geminiAnswerFromOpenAI(answer, model)
}

export function geminiClientFormat(method: GeminiMethod, model: string, framing: GeminiStreamFraming): ClientFormat {
	return {
		answerText: (answer, wire, text) => (wire === 'gemini' ? text ?? JSON.stringify(answer) : JSON.stringify(geminiAnswer(method, answer, model))),
		stream: (events, wire) => encodedStream(events, geminiStreamEncoder(wire, model, framing)),
		streamContentType: framing === 'sse' ? 'text/event-stream' : 'application/json',
	}
}

/**
 * A Gemini request for `model` by `method` (the path's) as the canonical request: a chat or an
 * embedding in OpenAI's form (client-request.ts), a chat with the client's own body for a channel
 * that speaks Gemini's API. `value` is the body parsed, `text` as the client sent it.
 */
export function canonicalRequestFromGemini(method: GeminiMethod, model: string, value: unknown, text: string): ConvertedRequest {
	if (isEmbeddingMethod(method)) return { endpoint: 'embeddings', body: openAIEmbeddingsFromGemini(value, model, method === 'batchEmbedContents'), extras: NO_EXTRAS }
	const { body, extras } = openAIChatFromGemini(value, model, method === 'streamGenerateContent')
	return { endpoint: 'chat', body, extras, native: isObject(value) ? geminiNativeRequest(text, value) : undefined }
}

/** The client's own chat request, for a channel that speaks Gemini's API: its body names no model, so it goes byte for byte. */
function geminiNativeRequest(text: string, body: Record<string, unknown>): NativeRequest {
	return { format: 'gemini', text, value: body, modelInBody: false, headers: {}, search: '' }
}
