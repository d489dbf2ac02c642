/** OpenAI embeddings through Gemini's `batchEmbedContents`: one request for one input or many. */
import type { GeminiContent } from '@/relay/formats/gemini/types'
import { relayErrors } from '../../errors'

type Body = Record<string, unknown>

function textsOf(input: unknown): string[] {
	const inputs = Array.isArray(input) ? input : [input]
	return inputs.map((item) => {
		// OpenAI's token arrays have no Gemini equivalent: the client's to change.
		if (typeof item !== 'string') throw relayErrors.badRequest('input: Gemini embeds text only, not token arrays')
		return item
	})
}

export function geminiEmbeddingRequest(body: Body, model: string) {
	const dimensions = typeof body.dimensions === 'number' ? { outputDimensionality: body.dimensions } : {}
	return {
		requests: textsOf(body.input).map((text) => ({
			model: `models/${model}`,
			content: { parts: [{ text }] } satisfies GeminiContent,
			...dimensions,
		})),
	}
}

/** Gemini reports no usage for embeddings: the relay counts the input itself. */
export function openAIEmbeddingsFromGemini(text: string, model: string) {
	const answer = JSON.parse(text) as { embeddings?: { values?: number[] }[] }
	return {
		object: 'list',
		data: (answer.embeddings ?? []).map((embedding, index) => ({ object: 'embedding', index, embedding: embedding.values ?? [] })),
		model,
	}
}
