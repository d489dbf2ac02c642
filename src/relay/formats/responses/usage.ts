/**
 * Usage in the Responses API's shape (`input_tokens`, `output_tokens`, their details) and the
 * text an answer generated, for billing passed-through answers and for answers bridged from chat.
 * Reasoning tokens are part of `output_tokens`; cache reads (`cached_tokens`) and cache writes
 * (`cache_write_tokens`) are part of `input_tokens`, as in chat's form (where Ferry's converters
 * write cache writes as `prompt_tokens_details.cache_creation_tokens`).
 */
import type { Usage } from '@/billing/price'
import type { Json } from '../events'
import { isObject } from '../json'

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0)

/** A Responses usage object as billed; undefined when the answer reports none. */
export function usageFromResponses(usage: unknown): Usage | undefined {
	if (!isObject(usage) || (usage.input_tokens == null && usage.output_tokens == null)) return undefined
	const input = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {}
	return {
		promptTokens: count(usage.input_tokens),
		completionTokens: count(usage.output_tokens),
		cachedTokens: count(input.cached_tokens),
		cacheCreationTokens: count(input.cache_write_tokens),
	}
}

/** A chat completion's usage → the Responses API's; null when the upstream reported none. */
export function responsesUsageFromChat(usage: unknown): Json | null {
	if (!isObject(usage)) return null
	const prompt = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {}
	const completion = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {}
	const input = count(usage.prompt_tokens)
	const output = count(usage.completion_tokens)
	return {
		input_tokens: input,
		input_tokens_details: { cached_tokens: count(prompt.cached_tokens), cache_write_tokens: count(prompt.cache_creation_tokens) },
		output_tokens: output,
		output_tokens_details: { reasoning_tokens: count(completion.reasoning_tokens) },
		total_tokens: count(usage.total_tokens) || input + output,
	}
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '')

/** The text one output item carries: message text, a refusal, a call's name and arguments, reasoning. */
export function outputItemText(item: unknown): string {
	if (!isObject(item)) return ''
	let text = textOf(item.name) + textOf(item.arguments) + textOf(item.input)
	for (const list of [item.content, item.summary]) {
		if (!Array.isArray(list)) continue
		for (const part of list) if (isObject(part)) text += textOf(part.text) + textOf(part.refusal)
	}
	return text
}

export const responseText = (answer: Json) => (Array.isArray(answer.output) ? answer.output.map(outputItemText).join('') : '')
