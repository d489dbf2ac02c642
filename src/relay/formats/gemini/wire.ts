/**
 * Reading Gemini's answers as they pass through (same-format channels): `usageMetadata`, billed as
 * the converted path bills it (thoughts count as completion, tool-use prompts as prompt), and the
 * generated text. A stream simply ends; an event with `error` ends it as failed.
 */
import type { Usage } from '@/billing/price'
import type { Json } from '../events'
import { usageFrom } from '../openai/usage'
import type { WireReader } from '../wire'
import type { GeminiResponse } from './types'
import { openAIUsageFromGemini } from './usage'

const usageOf = (response: Json): Usage | undefined => (response.usageMetadata ? usageFrom(openAIUsageFromGemini(response.usageMetadata)) : undefined)

/** Text, reasoning and function calls of every candidate. */
function textOf(response: GeminiResponse): string {
	let text = ''
	for (const candidate of Array.isArray(response.candidates) ? response.candidates : []) {
		for (const part of candidate?.content?.parts ?? []) {
			if (typeof part?.text === 'string') text += part.text
			if (part?.functionCall) text += `${part.functionCall.name ?? ''}${JSON.stringify(part.functionCall.args ?? {})}`
		}
	}
	return text
}

export const geminiWire: WireReader = {
	usageOf,
	textOf,
	stream() {
		let usage: Usage | undefined
		return {
			usage: () => usage,
			inspect(response) {
				if (response.error) return { text: '', end: 'failed' }
				usage = usageOf(response) ?? usage
				return { text: textOf(response) }
			},
		}
	},
}
