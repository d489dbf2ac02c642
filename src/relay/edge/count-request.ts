/**
 * The count endpoints (`/v1/messages/count_tokens`, `/v1/responses/input_tokens`): the body is read
 * within its gate (read-body.ts) and handed as bytes to the tokenizer worker, which decodes,
 * parses and counts it, so that however large the prompt, parsing it never holds the main thread.
 * Should the worker be unavailable, the same happens here.
 */
import { countPromptWithMedia, countRequestOnWorker, type PromptCount } from '@/billing/tokenizer'
import { RelayError } from '../errors'
import { countedPrompt, type CountedFormat } from '../formats/counted-prompts'
import { isObject } from '../formats/json'
import { type BodyGate, parseCallBody, readGatedBytes } from './read-body'

/** A request's prompt counted, and the model the request names (when it is text). */
export interface RequestTokens extends PromptCount {
	model?: string
}

/** The prompt's whole count, and the part of it its media parts make (by kind). */
export async function countRequestTokens(request: Request, gate: BodyGate, format: CountedFormat): Promise<RequestTokens> {
	return countBodyTokens(await readGatedBytes(request, gate), format)
}

/** countRequestTokens of a body already read. */
export async function countBodyTokens(bytes: Uint8Array, format: CountedFormat): Promise<RequestTokens> {
	const outcome = await countRequestOnWorker(format, bytes)
	if (outcome === undefined) {
		const { value } = parseCallBody(bytes)
		const model = isObject(value) && typeof value.model === 'string' ? value.model : undefined
		return { ...await countPromptWithMedia(countedPrompt(format, value)), model }
	}
	if ('refusal' in outcome) {
		const { status, message, type, code } = outcome.refusal
		throw new RelayError(status, message, type, code)
	}
	return { tokens: outcome.count, media: outcome.media ?? {}, model: outcome.model }
}
