/**
 * Claude's usage ⇄ OpenAI's. Claude counts `input_tokens` without the cache; OpenAI's
 * `prompt_tokens` includes cached tokens (`prompt_tokens_details.cached_tokens`). Cache writes ride
 * along as `prompt_tokens_details.cache_creation_tokens` (an extension), also inside `prompt_tokens`,
 * so each prompt token is counted exactly once.
 */

export interface ClaudeUsage {
	input_tokens?: number | null
	output_tokens?: number | null
	cache_read_input_tokens?: number | null
	cache_creation_input_tokens?: number | null
}

export interface OpenAIUsageWithCache {
	prompt_tokens: number
	completion_tokens: number
	total_tokens: number
	prompt_tokens_details: { cached_tokens: number; cache_creation_tokens: number }
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)

export function openAIUsageFromClaude(usage: ClaudeUsage): OpenAIUsageWithCache {
	const cacheRead = count(usage.cache_read_input_tokens)
	const cacheCreation = count(usage.cache_creation_input_tokens)
	const prompt = count(usage.input_tokens) + cacheRead + cacheCreation
	const completion = count(usage.output_tokens)
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
		prompt_tokens_details: { cached_tokens: cacheRead, cache_creation_tokens: cacheCreation },
	}
}

type OpenAIUsageInput = {
	prompt_tokens?: unknown
	completion_tokens?: unknown
	prompt_tokens_details?: { cached_tokens?: unknown; cache_creation_tokens?: unknown } | null
}

export function claudeUsageFromOpenAI(usage: OpenAIUsageInput | null | undefined) {
	const prompt = count(usage?.prompt_tokens)
	const cacheRead = Math.min(count(usage?.prompt_tokens_details?.cached_tokens), prompt)
	const cacheCreation = Math.min(count(usage?.prompt_tokens_details?.cache_creation_tokens), prompt - cacheRead)
	return {
		input_tokens: prompt - cacheRead - cacheCreation,
		output_tokens: count(usage?.completion_tokens),
		cache_read_input_tokens: cacheRead,
		cache_creation_input_tokens: cacheCreation,
	}
}
