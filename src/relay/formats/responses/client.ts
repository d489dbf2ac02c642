/**
 * The Responses client format (`POST /v1/responses`): its request as the canonical request — the
 * chat body it converts to (request.ts), and the client's own request for a channel that speaks the
 * API — and its encoder. Such a channel's answer passes back as it came, and the id of a response it
 * keeps is handed to `remember` with the channel that made it, before the client sees it. Any other
 * channel's chat answer is turned into a response (answer.ts, stream.ts).
 */
import type { NativeRequest } from '../../providers/types'
import { type ConvertedRequest, NO_EXTRAS } from '../canonical'
import type { AnsweredBy, ClientFormat } from '../client-format'
import { encodedStream, type EventReader, type Json } from '../events'
import { responseFromChat, type ResponseIdentity } from './answer'
import { chatBodyFromResponses, chatRequestFromResponses, nativeOnlyReason } from './request'
import { withoutFerryReasoning } from './reasoning-items'
import { responsesStreamEncoder } from './stream'

/** Keeps which channel made a response (the edge stores it). */
export type Remember = (responseId: string, answeredBy: AnsweredBy) => Promise<void>

/** A Responses request (`value` parsed, `text` as the client sent it) as the canonical chat request. */
export function canonicalRequestFromResponses(value: Json, text: string): ConvertedRequest {
	const required = nativeOnlyReason(value)
	const { body, extras } = chatRequestFromResponses(value, required !== undefined)
	// A channel that speaks the API gets the reasoning items Ferry made left out (OpenAI cannot read them).
	const native = withoutFerryReasoning(value)
	return { endpoint: 'chat', body, extras, native: native ? responsesNativeRequest(JSON.stringify(native), native, required) : responsesNativeRequest(text, value, required) }
}

/** Why a compaction goes only to a channel that speaks the Responses API: the others have no such call. */
export const COMPACTION_REASON = 'compaction (/v1/responses/compact) needs a channel that speaks the Responses API'

/**
 * A compaction request (`POST /v1/responses/compact`) as the canonical request: held and priced by
 * its chat body, sent only to a channel that speaks the API, to its `/compact` path. It is answered
 * whole: a `stream` field, which the call does not take, is left out.
 */
export function canonicalCompactionFromResponses(value: Json, text: string): ConvertedRequest {
	const { stream, ...compaction } = value
	const body = stream === undefined ? value : compaction
	const bodyText = stream === undefined ? text : JSON.stringify(compaction)
	return { endpoint: 'chat', body: chatBodyFromResponses(body, true), extras: NO_EXTRAS, native: { ...responsesNativeRequest(bodyText, body, COMPACTION_REASON), path: '/compact' } }
}

/** The client's own request, for a channel that speaks the API: its bytes when the model name is unchanged. */
function responsesNativeRequest(text: string, value: Json, required: string | undefined): NativeRequest {
	return {
		format: 'responses',
		text,
		value,
		modelInBody: true,
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
		async answerText(answer, wire, text, answeredBy) {
			if (wire !== 'responses') return JSON.stringify(responseFromChat(answer, identity))
			if (remember && typeof answer.id === 'string') await remember(answer.id, answeredBy)
			return text ?? JSON.stringify(answer)
		},
		stream(events, wire, answeredBy) {
			const source = wire === 'responses' && remember ? remembering(events, (responseId) => remember(responseId, answeredBy)) : events
			return encodedStream(source, responsesStreamEncoder(wire, identity))
		},
		streamContentType: 'text/event-stream',
	}
}
