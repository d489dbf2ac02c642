/**
 * The Claude client format (`POST /v1/messages`): its request as the canonical request — converted
 * to OpenAI's form with its extras (request.ts), and kept as it came for a channel that speaks
 * Claude's API (same-format.ts) — and its encoder: such a channel's answer passes on as it came, an
 * OpenAI-format answer is converted for the model the client asked for (answer.ts, stream.ts).
 */
import type { ConvertedRequest } from '../canonical'
import type { ClientFormat } from '../client-format'
import { encodedStream, type EventReader } from '../events'
import { claudeMessageFromOpenAI } from './answer'
import { canonicalFromClaude } from './request'
import { claudeNativeRequest, type HeaderReader } from './same-format'
import { claudeStreamEncoder } from './stream'

/**
 * `value` is the client's body parsed, `text` as it sent it; `headers` its headers and `betaQuery`
 * its `?beta=` value. Throws a 400 RelayError for a body that is not a Messages request.
 */
export function canonicalRequestFromClaude(value: unknown, text: string, headers: HeaderReader, betaQuery: string | null): ConvertedRequest {
	const { body, extras } = canonicalFromClaude(value)
	return { endpoint: 'chat', body, extras, native: claudeNativeRequest(text, value as Record<string, unknown>, headers, betaQuery) }
}

/** The events, with the prompt's count awaited before the first batch is handed on (and kept for `message_start`). */
function afterCount(events: EventReader, promptTokens: Promise<number>, counted: (tokens: number) => void): EventReader {
	let waited = false
	return {
		async read() {
			if (!waited) {
				waited = true
				counted(await promptTokens.catch(() => 0))
			}
			return events.read()
		},
		cancel: (reason) => events.cancel(reason),
	}
}

export function claudeClientFormat(model: string): ClientFormat {
	return {
		answerText: (answer, wire, text) => (wire === 'claude' ? text ?? JSON.stringify(answer) : JSON.stringify(claudeMessageFromOpenAI(answer, model))),
		stream(events, wire, _answeredBy, promptTokens) {
			if (wire === 'claude' || !promptTokens) return encodedStream(events, claudeStreamEncoder(wire, model))
			let inputTokens = 0
			return encodedStream(afterCount(events, promptTokens, (tokens) => (inputTokens = tokens)), claudeStreamEncoder(wire, model, () => inputTokens))
		},
		// An OpenAI-format stream's message_start reports the prompt as counted here (the upstream tells only at the end).
		countsPrompt: (wire) => wire !== 'claude',
		streamContentType: 'text/event-stream',
	}
}
