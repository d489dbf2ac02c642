/** Upstream token counts → OpenAI's usage object: missing counts are 0, a missing total is their sum. */
export interface TokenCounts {
	prompt_tokens?: number
	completion_tokens?: number
	total_tokens?: number
}

export function openAIUsage(counts: TokenCounts = {}) {
	const prompt = counts.prompt_tokens ?? 0
	const completion = counts.completion_tokens ?? 0
	return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: counts.total_tokens ?? prompt + completion }
}
