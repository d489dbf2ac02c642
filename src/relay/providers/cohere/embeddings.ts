/** OpenAI embeddings ↔ Cohere's v1 `/v1/embed` (float embeddings of texts). */
import { relayErrors } from '../../errors'

/** Cohere's v3+ models need to know what the texts are for; documents to be searched is the usual case. */
const DEFAULT_INPUT_TYPE = 'search_document'

function textsOf(input: unknown): string[] {
	const inputs = Array.isArray(input) ? input : [input]
	return inputs.map((item) => {
		if (typeof item !== 'string') throw relayErrors.badRequest('input: Cohere embeds text only, not token arrays')
		return item
	})
}

/** `input_type` and `truncate` may ride on the OpenAI request as extra fields. */
export function cohereEmbedBody(body: Record<string, unknown>): Record<string, unknown> {
	return {
		model: body.model,
		texts: textsOf(body.input),
		input_type: typeof body.input_type === 'string' && body.input_type ? body.input_type : DEFAULT_INPUT_TYPE,
		embedding_types: ['float'],
		...(typeof body.truncate === 'string' ? { truncate: body.truncate } : {}),
	}
}

interface CohereEmbedAnswer {
	id?: string
	/** `{float: [...]}` when embedding types were asked for (always, here); a bare list in the older `embeddings_floats` answer. */
	embeddings?: { float?: number[][] } | number[][]
	meta?: { billed_units?: { input_tokens?: number } }
}

export function openAIEmbeddingsFromCohere(text: string, model: string): Record<string, unknown> {
	const answer = JSON.parse(text) as CohereEmbedAnswer
	const vectors = Array.isArray(answer.embeddings) ? answer.embeddings : answer.embeddings?.float ?? []
	const tokens = answer.meta?.billed_units?.input_tokens
	return {
		object: 'list',
		data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
		model,
		// Without billed units the relay counts the texts itself.
		...(typeof tokens === 'number' ? { usage: { prompt_tokens: tokens, total_tokens: tokens } } : {}),
	}
}
