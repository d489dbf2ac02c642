/**
 * DeepSeek reports cache hits as `prompt_cache_hit_tokens` (+ `prompt_cache_miss_tokens`), both
 * parts of `prompt_tokens`. OpenAI's convention, which billing reads, is the same split written as
 * `prompt_tokens_details.cached_tokens`: the hits are written there (DeepSeek's own field wins when
 * both are present), `prompt_tokens` stays the whole prompt, so cached tokens bill at the cache
 * ratio and are never counted twice.
 */
type DeepSeekUsage = Record<string, unknown> & {
	prompt_cache_hit_tokens?: unknown
	prompt_tokens_details?: Record<string, unknown> | null
}

function withCachedTokens(usage: unknown): unknown {
	if (!usage || typeof usage !== 'object') return usage
	const reported = usage as DeepSeekUsage
	if (typeof reported.prompt_cache_hit_tokens !== 'number') return usage
	return { ...reported, prompt_tokens_details: { ...reported.prompt_tokens_details, cached_tokens: reported.prompt_cache_hit_tokens } }
}

/** An answer or a stream chunk with its usage (if any) in OpenAI's convention. */
export function withOpenAIUsage(answer: Record<string, unknown>): Record<string, unknown> {
	return answer.usage ? { ...answer, usage: withCachedTokens(answer.usage) } : answer
}
