/**
 * The canonical rerank form (Jina's, which clients of other gateways expect): a request
 * `{model, query, documents, top_n?, return_documents?}` whose documents are texts or `{text}`
 * objects, and an answer `{model, results: [{index, relevance_score, document?}], usage}`.
 * Converters of upstreams with their own shape build their answer with `rerankAnswer`.
 */
import type { Usage } from '@/billing/price'
import { isObject } from './json'

/** The texts of the request's documents, in order (the request was checked, so each has one). */
export function documentTexts(documents: unknown): string[] {
	if (!Array.isArray(documents)) return []
	return documents.map((document) => (typeof document === 'string' ? document : isObject(document) && typeof document.text === 'string' ? document.text : ''))
}

/** Everything a rerank call sends to be read: the query and each document, for local counting. */
export const rerankInput = (body: Record<string, unknown>) => [typeof body.query === 'string' ? body.query : '', ...documentTexts(body.documents)]

/**
 * A rerank answer's usage: its prompt tokens, or its total when that is all it reports (Jina may
 * send only `total_tokens`). Reranking generates nothing, so there are no completion tokens.
 */
export function rerankUsageFrom(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined
	const tokens = [value.prompt_tokens, value.total_tokens].find((count): count is number => typeof count === 'number' && Number.isFinite(count) && count >= 0)
	return tokens === undefined ? undefined : { promptTokens: tokens, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0 }
}

interface RerankResult {
	index?: unknown
	relevance_score?: unknown
	document?: unknown
}

/** An upstream's results and input token count → the canonical answer; no usage when the count is unknown. */
export function rerankAnswer(answer: { id?: unknown; model: string; results: unknown; inputTokens: unknown }): Record<string, unknown> {
	const results = Array.isArray(answer.results) ? (answer.results as RerankResult[]) : []
	const tokens = typeof answer.inputTokens === 'number' && answer.inputTokens >= 0 ? answer.inputTokens : undefined
	return {
		...(typeof answer.id === 'string' && answer.id ? { id: answer.id } : {}),
		model: answer.model,
		results: results.map((result) => ({
			index: result.index,
			relevance_score: result.relevance_score,
			...(result.document === undefined || result.document === null ? {} : { document: result.document }),
		})),
		...(tokens === undefined ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
	}
}

/**
 * The answer a rerank client gets: the upstream's, with `usage.prompt_tokens` and `total_tokens`
 * always there (filled from the billed count when the upstream reported only a total, or nothing).
 */
export function withRerankUsage(text: string, answer: Record<string, unknown>, billed: Usage): string {
	const usage = isObject(answer.usage) ? answer.usage : {}
	if (typeof usage.prompt_tokens === 'number' && typeof usage.total_tokens === 'number') return text
	return JSON.stringify({ ...answer, usage: { ...usage, prompt_tokens: billed.promptTokens, total_tokens: typeof usage.total_tokens === 'number' ? usage.total_tokens : billed.promptTokens } })
}
