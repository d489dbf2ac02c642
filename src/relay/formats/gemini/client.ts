/**
 * The Gemini client format (`/v1beta/models/{model}:{method}`): its methods, its encoder — an answer
 * from a channel that speaks Gemini's API passes on as it came, an OpenAI-format one is turned into
 * Gemini's shape (client-answer.ts) — and the client's own request for such a channel.
 */
import type { NativeRequest } from '../../providers/types'
import type { ClientFormat } from '../client-format'
import { encodedStream } from '../events'
import { geminiAnswerFromOpenAI, geminiStreamEncoder, type GeminiStreamFraming } from './client-answer'

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

/** The client's own chat request, for a channel that speaks Gemini's API: its body names no model, so it goes byte for byte. */
export function geminiNativeRequest(text: string, body: Record<string, unknown>): NativeRequest {
	return { format: 'gemini', bodyFor: () => text, value: body, headers: {}, search: '' }
}
