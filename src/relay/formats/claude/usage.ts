/**
 * Claude's usage ⇄ OpenAI's. Claude counts `input_tokens` without the cache; OpenAI's
 * `prompt_tokens` includes cached tokens (`prompt_tokens_details.cached_tokens`). Cache writes ride
 * along as `prompt_tokens_details.cache_creation_tokens` (an extension), also inside `prompt_tokens`,
 * so each prompt token is counted exactly once. Also what the relay bills for an answer that
 * stays in Claude's format (same-format.ts), read the same way.
 */
import type { Usage } from '@/billing/price'
import { isObject } from '../json'

export interface ClaudeUsage {
	input_tokens?: number | null
	output_tokens?: number | null
	cache_read_input_tokens?: number | null
	cache_creation_input_tokens?: number | null
	/** How the cache writes split by lifetime; the 1-hour ones may be priced apart (`ModelPriceTiers`). */
	cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null
}

interface OpenAIUsageWithCache {
	prompt_tokens: number
	completion_tokens: number
	total_tokens: number
	/** `cache_creation_1h_tokens` (part of the cache writes) only when some were written for an hour. */
	prompt_tokens_details: { cached_tokens: number; cache_creation_tokens: number; cache_creation_1h_tokens?: number }
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)

export function openAIUsageFromClaude(usage: ClaudeUsage): OpenAIUsageWithCache {
	const cacheRead = count(usage.cache_read_input_tokens)
	const cacheCreation = count(usage.cache_creation_input_tokens)
	const cacheCreationHour = Math.min(count(usage.cache_creation?.ephemeral_1h_input_tokens), cacheCreation)
	const prompt = count(usage.input_tokens) + cacheRead + cacheCreation
	const completion = count(usage.output_tokens)
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
		prompt_tokens_details: { cached_tokens: cacheRead, cache_creation_tokens: cacheCreation, ...(cacheCreationHour > 0 ? { cache_creation_1h_tokens: cacheCreationHour } : {}) },
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

/** The usage of a Claude answer as the relay bills it; undefined when the answer reports none. */
export function usageFromClaude(usage: unknown): Usage | undefined {
	if (!isObject(usage) || (typeof usage.input_tokens !== 'number' && typeof usage.output_tokens !== 'number')) return undefined
	const counted = openAIUsageFromClaude(usage as ClaudeUsage)
	return {
		promptTokens: counted.prompt_tokens,
		completionTokens: counted.completion_tokens,
		cachedTokens: counted.prompt_tokens_details.cached_tokens,
		cacheCreationTokens: counted.prompt_tokens_details.cache_creation_tokens,
		...(counted.prompt_tokens_details.cache_creation_1h_tokens ? { cacheCreation1hTokens: counted.prompt_tokens_details.cache_creation_1h_tokens } : {}),
	}
}

/** The text a block generated, for counting when the upstream reports no usage. */
export function blockText(block: unknown): string {
	if (!isObject(block)) return ''
	if (typeof block.text === 'string') return block.text
	if (typeof block.thinking === 'string') return block.thinking
	if (block.type === 'tool_use') return `${String(block.name ?? '')}${JSON.stringify(block.input ?? {})}`
	return ''
}
