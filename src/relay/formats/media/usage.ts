/**
 * The usage media answers report, as billed (OpenAI API reference):
 * - images (gpt-image models): `usage: {input_tokens, output_tokens, …}`;
 * - transcriptions and translations in `json`/`verbose_json`: `usage: {type: "tokens", input_tokens,
 *   input_token_details: {text_tokens, audio_tokens}, output_tokens}` for token-priced models, or
 *   `usage: {type: "duration", seconds}` for duration-priced ones (whisper-1), or only `verbose_json`'s
 *   `duration`. Seconds count as audio input tokens at new-api's rate, 1000 a minute (each started
 *   second counted);
 * - moderations, speech, and the `text`/`srt`/`vtt` transcription formats report none.
 */
import { z } from 'zod'
import type { Usage } from '@/billing/price'
import type { MediaEndpoint } from '../../providers/types'
import { isObject } from '../json'

const AUDIO_TOKENS_PER_MINUTE = 1000
const SECONDS_PER_MINUTE = 60

const tokenUsageSchema = z.looseObject({
	input_tokens: z.number().nonnegative(),
	output_tokens: z.number().nonnegative().nullish(),
	input_tokens_details: z.looseObject({ text_tokens: z.number().nullish(), audio_tokens: z.number().nullish() }).nullish(),
	input_token_details: z.looseObject({ text_tokens: z.number().nullish(), audio_tokens: z.number().nullish() }).nullish(),
})

const durationUsageSchema = z.looseObject({ type: z.literal('duration'), seconds: z.number().nonnegative() })

/** Audio seconds → the audio input tokens they are billed as. */
export const audioSecondsAsTokens = (seconds: number) => Math.round(Math.ceil(seconds) * AUDIO_TOKENS_PER_MINUTE / SECONDS_PER_MINUTE)

function transcriptionUsage(answer: Record<string, unknown>): Usage | undefined {
	const duration = durationUsageSchema.safeParse(answer.usage)
	const seconds = duration.success ? duration.data.seconds : typeof answer.duration === 'number' && answer.duration >= 0 ? answer.duration : undefined
	const tokens = tokenUsageSchema.safeParse(answer.usage)
	if (tokens.success) {
		const { input_tokens: input, output_tokens: output } = tokens.data
		const details = tokens.data.input_token_details ?? tokens.data.input_tokens_details
		// Without a breakdown, a transcription's input is its audio.
		const audio = details?.audio_tokens ?? input - (details?.text_tokens ?? 0)
		return { promptTokens: input, completionTokens: output ?? 0, audioPromptTokens: Math.max(0, Math.min(audio, input)) }
	}
	if (seconds === undefined) return undefined
	const audio = audioSecondsAsTokens(seconds)
	return { promptTokens: audio, completionTokens: 0, audioPromptTokens: audio }
}

/** The usage a whole media answer (parsed JSON) reports, as billed; undefined when it reports none. */
export function mediaUsageOf(endpoint: MediaEndpoint, answer: unknown): Usage | undefined {
	if (!isObject(answer)) return undefined
	if (endpoint === 'transcriptions' || endpoint === 'translations') return transcriptionUsage(answer)
	if (endpoint === 'moderations' || endpoint === 'speech') return undefined
	const tokens = tokenUsageSchema.safeParse(answer.usage)
	return tokens.success ? { promptTokens: tokens.data.input_tokens, completionTokens: tokens.data.output_tokens ?? 0 } : undefined
}

/** The text a transcription answer carries (`text` of JSON, or the whole `text`/`srt`/`vtt` body), for local counting. */
export function transcriptText(answer: unknown, text: string): string {
	if (answer === undefined) return text
	return isObject(answer) && typeof answer.text === 'string' ? answer.text : ''
}
