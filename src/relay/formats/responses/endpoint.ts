/**
 * The Responses client format (`POST /v1/responses`, design §5). The request is converted to the
 * canonical chat body (request.ts), which the pipeline checks, holds, routes and bills by. A channel
 * that speaks the API (OpenAI, Azure) gets the client's own body with only the model mapped and its
 * answer passes back as it came; any other channel gets the chat body and its answer is turned into
 * a response (answer.ts, stream.ts). Errors answer in OpenAI's shape.
 *
 * A response such a channel keeps (`store` not false) is remembered with the channel that made it
 * (db/stores/kept-responses.ts), and the calls about a kept response go there (kept.ts). A request
 * that continues one (`previous_response_id`) is routed and priced like any call — the caller's
 * group, the token's model limits, the channels that serve the model in that group and are enabled
 * — and the keeping channel is only a preference among those: a response made in another group, or
 * on a channel that no longer serves the model, is continued on the channel routing picks (or
 * refused when none serves the model). Bridged responses are not kept, and another user's response
 * is answered exactly as one that does not exist: continuing either is a 400.
 */
import type { Dependencies } from '@/dependencies'
import { keptResponseChannel, rememberResponse } from '@/db/stores/kept-responses'
import { nowSeconds } from '@/lib/clock'
import { openAIErrorResponse, relayErrors, relayFailure, RelayError } from '../../errors'
import { countRequestTokens } from '../../pipeline/count-request'
import { readJsonCall } from '../../pipeline/read-body'
import { respond } from '../../pipeline/respond'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey, type RelayCaller } from '../../pipeline/token-auth'
import type { NativeRequest } from '../../providers/types'
import type { ClientFormat } from '../client-format'
import { encodedStream, type EventReader, type Json } from '../events'
import { isObject } from '../json'
import { itemId, responseEcho, responseFromChat, type ResponseIdentity } from './answer'
import { chatBodyFromResponses, nativeOnlyReason } from './request'
import { responsesStreamEncoder } from './stream'

type Remember = (responseId: string, channelId: number) => Promise<void>

/** The client's own request, for a channel that speaks the API: its bytes when the model name is unchanged. */
function responsesNativeRequest(text: string, value: Json, required: string | undefined): NativeRequest {
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

function responsesFormat(identity: ResponseIdentity, remember: Remember | undefined): ClientFormat {
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

/**
 * The channel that keeps the response a request continues, to be preferred by routing; a 400 when
 * Ferry knows no such response of the user's (another user's included: the same answer, word for word).
 */
async function keepingChannel(dependencies: Dependencies, caller: RelayCaller, previous: unknown): Promise<number | undefined> {
	if (typeof previous !== 'string' || !previous) return undefined
	const channelId = await keptResponseChannel(dependencies.store, previous, caller.user.id)
	if (channelId === undefined) {
		throw new RelayError(400, `Previous response with id '${previous}' not found. Only responses created through this gateway on a channel that speaks the Responses API, with store not false, can be continued; send the whole conversation in input instead.`, 'invalid_request_error', 'previous_response_not_found')
	}
	if (caller.pinnedChannelId !== undefined && caller.pinnedChannelId !== channelId) throw relayErrors.badRequest(`previous_response_id: the response ${previous} was created on another channel than the one this key pins`)
	return channelId
}

export function relayResponses(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		if (!isObject(value)) throw relayErrors.badRequest('the request body must be a JSON object')
		const required = nativeOnlyReason(value)
		const body = chatBodyFromResponses(value, required !== undefined)
		const preferredChannelId = await keepingChannel(dependencies, caller, value.previous_response_id)
		const identity: ResponseIdentity = { id: itemId('resp'), createdAt: nowSeconds(), model: typeof value.model === 'string' ? value.model : '', echo: responseEcho(value) }
		const remember: Remember | undefined = value.store === false ? undefined : async (responseId, channelId) => {
			try {
				await rememberResponse(dependencies.store, { responseId, userId: caller.user.id, channelId })
			} catch (error) {
				// The answer is billed and on its way: a lost record only makes the response unreachable later.
				dependencies.logger.error('remembering a kept response failed', { channelId, error: String(error) })
			}
		}
		return { call: { endpoint: 'chat', caller, body, native: responsesNativeRequest(text, value, required), preferredChannelId }, format: responsesFormat(identity, remember) }
	})
}

/**
 * `POST /v1/responses/input_tokens`: the input counted locally with the gateway's tokenizer, as the
 * request would be bridged. Free, but counted by the request rate limits like any call.
 */
export async function countResponseTokens(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const succeeded = await relay.requestLimits.admit(caller)
		const counted = Response.json({ object: 'response.input_tokens', input_tokens: await countRequestTokens(request, relay.bodyGate(caller), 'responses') })
		succeeded?.()
		return counted
	} catch (error) {
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}
