/**
 * The Claude client format's encoder (`POST /v1/messages`): an answer from a channel that speaks
 * Claude's API passes on as it came; an OpenAI-format answer is converted for the model the client
 * asked for (answer.ts, stream.ts).
 */
import type { ClientFormat } from '../client-format'
import { encodedStream } from '../events'
import { claudeMessageFromOpenAI } from './answer'
import { claudeStreamEncoder } from './stream'

export function claudeClientFormat(model: string): ClientFormat {
	return {
		answerText: (answer, wire, text) => (wire === 'claude' ? text ?? JSON.stringify(answer) : JSON.stringify(claudeMessageFromOpenAI(answer, model))),
		stream: (events, wire) => encodedStream(events, claudeStreamEncoder(wire, model)),
		streamContentType: 'text/event-stream',
	}
}
