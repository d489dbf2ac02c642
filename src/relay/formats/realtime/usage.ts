/**
 * The Realtime API's usage, as `response.done` reports it for one response, billed: `input_tokens`
 * (text, audio and image, cached ones included) and `output_tokens` (text and audio). Cached input
 * (`input_token_details.cached_tokens`) is priced at the cache ratio, uncached audio input
 * (`audio_tokens` less the cached audio) at the audio ratio, and audio output
 * (`output_token_details.audio_tokens`) at the audio output ratios (billing/price.ts).
 */
import type { Usage } from '@/billing/price'
import { isObject } from '../json'

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0)

/** A `response.done`'s `response.usage` as billed; undefined when it reports none. */
export function usageFromRealtime(usage: unknown): Usage | undefined {
	if (!isObject(usage) || (usage.input_tokens == null && usage.output_tokens == null)) return undefined
	const input = isObject(usage.input_token_details) ? usage.input_token_details : {}
	const cachedDetails = isObject(input.cached_tokens_details) ? input.cached_tokens_details : {}
	const output = isObject(usage.output_token_details) ? usage.output_token_details : {}
	return {
		promptTokens: count(usage.input_tokens),
		completionTokens: count(usage.output_tokens),
		cachedTokens: count(input.cached_tokens),
		audioPromptTokens: Math.max(0, count(input.audio_tokens) - count(cachedDetails.audio_tokens)),
		audioCompletionTokens: count(output.audio_tokens),
	}
}

/** The events of the Realtime API that open and close a response. */
export const REALTIME_EVENTS = { responseCreated: 'response.created', responseDone: 'response.done', responseCreate: 'response.create', error: 'error' } as const
