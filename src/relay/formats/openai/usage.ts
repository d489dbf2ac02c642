/** Reading usage and generated text out of OpenAI-format answers. */
import type { Usage } from '@/billing/price'
import { isObject } from '../json'

/** A count that is absent (undefined or null) reads as undefined; anything but a finite number is not a count. */
const NOT_A_COUNT = Symbol('not a count')
function count(value: unknown): number | undefined | typeof NOT_A_COUNT {
	if (value === undefined || value === null) return undefined
	return typeof value === 'number' && Number.isFinite(value) ? value : NOT_A_COUNT
}

/** A details object, `{}` when absent; undefined when it is not an object. */
const details = (value: unknown): Record<string, unknown> | undefined => value === undefined || value === null ? {} : isObject(value) ? value : undefined

/**
 * The usage an OpenAI-format answer reports (all fields optional: what is there is read). A usage
 * with any of these fields of the wrong type is no usage at all (the call is then counted locally).
 * `prompt_tokens_details.cache_creation_tokens` (and `cache_creation_1h_tokens`, the part written
 * for an hour) are not OpenAI's: converters of upstreams that bill cache writes (Claude) fill them; `*_details.audio_tokens` come from audio models, priced by the audio
 * ratios. Hand-written rather than a schema: it runs on every relayed answer.
 */
export function usageFrom(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined
	const promptDetails = details(value.prompt_tokens_details)
	const completionDetails = details(value.completion_tokens_details)
	if (!promptDetails || !completionDetails) return undefined
	const counts = [
		count(value.prompt_tokens), count(value.completion_tokens), count(value.total_tokens),
		count(promptDetails.cached_tokens), count(promptDetails.cache_creation_tokens), count(promptDetails.audio_tokens),
		count(completionDetails.audio_tokens), count(promptDetails.cache_creation_1h_tokens),
	]
	if (counts.includes(NOT_A_COUNT)) return undefined
	const [promptTokens, completionTokens, , cachedTokens, cacheCreationTokens, audioPrompt, audioCompletion, cacheCreationHour] = counts as (number | undefined)[]
	if (promptTokens === undefined && completionTokens === undefined) return undefined
	const audioPromptTokens = audioPrompt ?? 0
	const audioCompletionTokens = audioCompletion ?? 0
	return {
		promptTokens: promptTokens ?? 0,
		completionTokens: completionTokens ?? 0,
		cachedTokens: cachedTokens ?? 0,
		cacheCreationTokens: cacheCreationTokens ?? 0,
		...(audioPromptTokens > 0 ? { audioPromptTokens } : {}),
		...(audioCompletionTokens > 0 ? { audioCompletionTokens } : {}),
		...(cacheCreationHour ? { cacheCreation1hTokens: cacheCreationHour } : {}),
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
