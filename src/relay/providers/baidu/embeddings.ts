/** OpenAI embeddings ↔ Wenxin embeddings (`input` is always a list of strings there). */
import { checked } from './answer'

export function wenxinEmbeddingRequest(body: Record<string, unknown>) {
	const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')]
	return { input, ...(typeof body.user === 'string' ? { user_id: body.user } : {}) }
}

export function toOpenAIEmbeddings(text: string, model: string): Record<string, unknown> {
	const answer = checked(JSON.parse(text) as {
		data?: { embedding?: number[]; index?: number }[]
		usage?: { prompt_tokens?: number; total_tokens?: number }
		error_code?: number
		error_msg?: string
	})
	return {
		object: 'list',
		model,
		data: (answer.data ?? []).map((item, position) => ({ object: 'embedding', index: item.index ?? position, embedding: item.embedding ?? [] })),
		usage: { prompt_tokens: answer.usage?.prompt_tokens ?? 0, total_tokens: answer.usage?.total_tokens ?? answer.usage?.prompt_tokens ?? 0 },
	}
}
