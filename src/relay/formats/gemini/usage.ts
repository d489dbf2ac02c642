/**
 * Usage between Gemini's `usageMetadata` and OpenAI's `usage`. Both count cached tokens inside the
 * prompt; Gemini counts a thinking model's thoughts apart from the answer, OpenAI inside the
 * completion (as reasoning tokens).
 */
import { MEDIA_KINDS, type MediaKind, type PromptCount } from '@/billing/tokenizer'
import type { GeminiUsageMetadata } from './types'

/** Google's `Modality` names (a `ModalityTokenCount`'s `modality`) of the media kinds a count tells apart. */
const MODALITIES: Record<MediaKind, string> = { image: 'IMAGE', audio: 'AUDIO', video: 'VIDEO', document: 'DOCUMENT' }

/**
 * A count's `promptTokensDetails`, as `countTokens` answers it: each media kind's tokens under its
 * modality, the rest (the text, and the messages' framing) under TEXT.
 */
export function geminiPromptTokensDetails({ tokens, media }: PromptCount): { modality: string; tokenCount: number }[] {
	let text = tokens
	const details: { modality: string; tokenCount: number }[] = []
	for (const kind of MEDIA_KINDS) {
		const count = media[kind]
		if (!count) continue
		text -= count
		details.push({ modality: MODALITIES[kind], tokenCount: count })
	}
	return [{ modality: 'TEXT', tokenCount: Math.max(0, text) }, ...details]
}

interface OpenAIUsageObject {
	prompt_tokens: number
	completion_tokens: number
	total_tokens: number
	prompt_tokens_details?: { cached_tokens: number }
	completion_tokens_details?: { reasoning_tokens: number }
}

export function openAIUsageFromGemini(metadata: GeminiUsageMetadata): OpenAIUsageObject {
	// Results of Google's own tools (search, code execution) are read as input, counted apart.
	const prompt = (metadata.promptTokenCount ?? 0) + (metadata.toolUsePromptTokenCount ?? 0)
	const thoughts = metadata.thoughtsTokenCount ?? 0
	const completion = (metadata.candidatesTokenCount ?? 0) + thoughts
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
		...(metadata.cachedContentTokenCount ? { prompt_tokens_details: { cached_tokens: metadata.cachedContentTokenCount } } : {}),
		...(thoughts ? { completion_tokens_details: { reasoning_tokens: thoughts } } : {}),
	}
}

interface OpenAIUsageInput {
	prompt_tokens?: number | null
	completion_tokens?: number | null
	prompt_tokens_details?: { cached_tokens?: number | null } | null
	completion_tokens_details?: { reasoning_tokens?: number | null } | null
}

export function geminiUsageFromOpenAI(usage: OpenAIUsageInput): GeminiUsageMetadata {
	const prompt = usage.prompt_tokens ?? 0
	const completion = usage.completion_tokens ?? 0
	const thoughts = Math.min(usage.completion_tokens_details?.reasoning_tokens ?? 0, completion)
	const cached = usage.prompt_tokens_details?.cached_tokens ?? 0
	return {
		promptTokenCount: prompt,
		candidatesTokenCount: completion - thoughts,
		totalTokenCount: prompt + completion,
		...(cached ? { cachedContentTokenCount: cached } : {}),
		...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
	}
}
