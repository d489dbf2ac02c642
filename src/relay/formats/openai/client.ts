/**
 * The OpenAI client format's encoder (chat completions, completions, embeddings, rerank): results
 * are in OpenAI's form already, so a whole answer goes as the upstream sent it (or as the converter
 * built it) and a stream's events as their own bytes, each JSON value written once.
 */
import type { ClientFormat } from '../client-format'
import { encodedStream, type AnswerEvent, type StreamEncoder } from '../events'

const openAIEvents: StreamEncoder = {
	encode(event: AnswerEvent) {
		switch (event.type) {
			case 'data':
				return `${event.raw ?? `data: ${JSON.stringify(event.data)}`}\n\n`
			case 'done':
				return 'data: [DONE]\n\n'
			case 'other':
				return `${event.raw}\n\n`
			case 'failed': {
				const { message, code } = event.error
				return `data: ${JSON.stringify({ error: { message, type: 'upstream_error', param: null, code: code ?? 'upstream_error' } })}\n\n`
			}
		}
	},
	end: () => '',
}

export const openAIClientFormat: ClientFormat = {
	answerText: (answer, _wire, text) => text ?? JSON.stringify(answer),
	stream: (events) => encodedStream(events, openAIEvents),
	streamContentType: 'text/event-stream',
	passThroughWire: 'openai',
}
