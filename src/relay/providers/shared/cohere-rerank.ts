/**
 * Rerank answers in Cohere's v1 shape, which SiliconCloud's `/v1/rerank` follows: results as in the
 * canonical form, but token counts in `meta.tokens` (Cohere), `meta.billed_units` or a top-level
 * `tokens` (SiliconCloud, depending on the documentation's age) instead of a `usage` object.
 */
import { rerankAnswer } from '../../formats/rerank'

interface TokenCounts { input_tokens?: unknown }

interface CohereRerankAnswer {
	id?: unknown
	results?: unknown
	tokens?: TokenCounts
	meta?: { tokens?: TokenCounts; billed_units?: TokenCounts & { search_units?: unknown } }
}

/**
 * The answer in the canonical shape. The input token count is what the relay bills; when the
 * upstream reports none (Cohere bills rerank in search units) it is left out and counted locally.
 */
export function rerankFromCohere(text: string, model: string): Record<string, unknown> {
	const answer = JSON.parse(text) as CohereRerankAnswer
	const inputTokens = answer.meta?.tokens?.input_tokens ?? answer.meta?.billed_units?.input_tokens ?? answer.tokens?.input_tokens
	return rerankAnswer({ id: answer.id, model, results: answer.results, inputTokens })
}
