/**
 * The count endpoints (`/v1/messages/count_tokens`, `/v1/responses/input_tokens`): the body is read
 * within its gate (read-body.ts) and handed as bytes to the tokenizer worker, which decodes,
 * parses and counts it, so that however large the prompt, parsing it never holds the main thread.
 * Should the worker be unavailable, the same happens here.
 */
import { countPrompt, countRequestOnWorker } from '@/billing/tokenizer'
import { RelayError } from '../errors'
import { countedPrompt, type CountedFormat } from '../formats/counted-prompts'
import { type BodyGate, parseCallBody, readGatedBytes } from './read-body'

export async function countRequestTokens(request: Request, gate: BodyGate, format: CountedFormat): Promise<number> {
	const bytes = await readGatedBytes(request, gate)
	const outcome = await countRequestOnWorker(format, bytes)
	if (outcome === undefined) return countPrompt(countedPrompt(format, parseCallBody(bytes).value))
	if ('refusal' in outcome) {
		const { status, message, type, code } = outcome.refusal
		throw new RelayError(status, message, type, code)
	}
	return outcome.count
}
