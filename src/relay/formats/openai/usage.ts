/** Reading usage and generated text out of OpenAI-format answers. */
import type { Usage } from '@/billing/price'
import { openAIUsageSchema } from './requests'

export function usageFrom(value: unknown): Usage | undefined {
	const parsed = openAIUsageSchema.safeParse(value)
	if (!parsed.success) return undefined
	const usage = parsed.data
	if (usage.prompt_tokens == null && usage.completion_tokens == null) return undefined
	const audioPromptTokens = usage.prompt_tokens_details?.audio_tokens ?? 0
	const audioCompletionTokens = usage.completion_tokens_details?.audio_tokens ?? 0
	return {
		promptTokens: usage.prompt_tokens ?? 0,
		completionTokens: usage.completion_tokens ?? 0,
		cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
		cacheCreationTokens: usage.prompt_tokens_details?.cache_creation_tokens ?? 0,
		...(audioPromptTokens > 0 ? { audioPromptTokens } : {}),
		...(audioCompletionTokens > 0 ? { audioCompletionTokens } : {}),
	}
}

type Choice = { message?: { content?: unknown; reasoning_content?: unknown; tool_calls?: unknown }; delta?: Choice['message']; text?: unknown }

/** The text a choice carries (content, reasoning, tool-call arguments), for local counting. */
export function choiceText(choice: Choice): string {
	const part = choice.message ?? choice.delta
	let text = typeof choice.text === 'string' ? choice.text : ''
	if (part) {
		if (typeof part.content === 'string') text += part.content
		if (typeof part.reasoning_content === 'string') text += part.reasoning_content
		if (Array.isArray(part.tool_calls)) {
			for (const call of part.tool_calls as { function?: { name?: unknown; arguments?: unknown } }[]) {
				if (typeof call.function?.name === 'string') text += call.function.name
				if (typeof call.function?.arguments === 'string') text += call.function.arguments
			}
		}
	}
	return text
}

export function answerText(answer: { choices?: unknown }): string {
	return Array.isArray(answer.choices) ? (answer.choices as Choice[]).map(choiceText).join('') : ''
}
