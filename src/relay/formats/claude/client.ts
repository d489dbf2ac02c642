/**
 * The Claude client format (`POST /v1/messages`): its request as the canonical request — converted
 * to OpenAI's form with its extras (request.ts), and kept as it came for a channel that speaks
 * Claude's API (same-format.ts) — and its encoder: such a channel's answer passes on as it came, an
 * OpenAI-format answer is converted for the model the client asked for (answer.ts, stream.ts).
 */
import type { ConvertedRequest } from '../canonical'
import type { ClientFormat } from '../client-format'
import { encodedStream } from '../events'
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

export function claudeClientFormat(model: string): ClientFormat {
	return {
		answerText: (answer, wire, text) => (wire === 'claude' ? text ?? JSON.stringify(answer) : JSON.stringify(claudeMessageFromOpenAI(answer, model))),
		stream: (events, wire) => encodedStream(events, claudeStreamEncoder(wire, model)),
		streamContentType: 'text/event-stream',
	}
}
