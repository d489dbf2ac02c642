/**
 * The Responses client format's encoder (`POST /v1/responses`) and the client's own request. A
 * channel that speaks the API answers in it: its answer passes back as it came, and the id of a
 * response it keeps is handed to `remember` with the channel that made it, before the client sees
 * it. Any other channel's chat answer is turned into a response (answer.ts, stream.ts).
 */
import type { NativeRequest } from '../../providers/types'
import type { ClientFormat } from '../client-format'
import { encodedStream, type EventReader, type Json } from '../events'
import { responseFromChat, type ResponseIdentity } from './answer'
import { responsesStreamEncoder } from './stream'

/** Keeps which channel made a response (the edge stores it). */
export type Remember = (responseId: string, channelId: number) => Promise<void>

/** The client's own request, for a channel that speaks the API: its bytes when the model name is unchanged. */
export function responsesNativeRequest(text: string, value: Json, required: string | undefined): NativeRequest {
	return {
		format: 'responses',
		bodyFor: (model) => (model === value.model ? text : JSON.stringify({ ...value, model })),
		value,
		headers: {},
		search: '',
		...(required ? { required } : {}),
	}
}

/** A stream's events, with the id of the response they create remembered once `response.created` passes (before the client sees it). */
function remembering(events: EventReader, remember: (responseId: string) => Promise<void>): EventReader {
	let remembered = false
	return {
		async read() {
			const batch = await events.read()
			if (!remembered) {
				for (const event of batch.events) {
					if (event.type !== 'data' || event.data.type !== 'response.created' || typeof event.data.response?.id !== 'string') continue
					remembered = true
					await remember(event.data.response.id)
				}
			}
			return batch
		},
		cancel: (reason) => events.cancel(reason),
	}
}

/** `remember` is absent when the client asked that nothing be kept (`store: false`). */
export function responsesClientFormat(identity: ResponseIdentity, remember: Remember | undefined): ClientFormat {
	return {
		async answerText(answer, wire, text, channelId) {
			if (wire !== 'responses') return JSON.stringify(responseFromChat(answer, identity))
			if (remember && typeof answer.id === 'string') await remember(answer.id, channelId)
			return text ?? JSON.stringify(answer)
		},
		stream(events, wire, channelId) {
			const source = wire === 'responses' && remember ? remembering(events, (responseId) => remember(responseId, channelId)) : events
			return encodedStream(source, responsesStreamEncoder(wire, identity))
		},
		streamContentType: 'text/event-stream',
	}
}
