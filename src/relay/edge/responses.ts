/**
 * The Responses client format's HTTP edge, OpenAI's Responses API paths under `/v1/responses`:
 * `POST /v1/responses` — the key is authenticated before the body is read, and the body becomes the
 * canonical chat request (formats/responses/request.ts) with the client's own request for a channel
 * that speaks the API — `POST /v1/responses/compact` (a compaction, native only),
 * `POST /v1/responses/input_tokens`, and the calls about a kept response (kept-responses.ts). The
 * WebSocket mode of `/v1/responses` is the sessions' (sessions/responses-socket.ts). Everything else
 * under `/v1/responses` answers 501 with the rest of `/v1`. Errors answer in OpenAI's shape.
 *
 * A response such a channel keeps (`store` not false) is remembered with the channel that made it
 * (db/stores/kept-responses.ts), and the calls about a kept response go there. A request that
 * continues one (`previous_response_id`) is routed and priced like any call — the caller's group,
 * the token's model limits, the channels that serve the model in that group and are enabled — and
 * the keeping channel is only a preference among those: a response made in another group, or on a
 * channel that no longer serves the model, is continued on the channel routing picks (or refused
 * when none serves the model). Bridged responses are not kept, and another user's response is
 * answered exactly as one that does not exist: continuing either is a 400.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { keptResponsePlace, type KeptResponsePlace, rememberResponse } from '@/db/stores/kept-responses'
import { nowSeconds } from '@/lib/clock'
import { openAIErrorResponse, relayErrors, relayFailure, RelayError } from '../errors'
import { isObject } from '../formats/json'
import { responseIdentity } from '../formats/responses/answer'
import { canonicalCompactionFromResponses, canonicalRequestFromResponses, type Remember, responsesClientFormat } from '../formats/responses/client'
import type { RelayServices } from '../services'
import { countRequestTokens } from './count-request'
import { type KeptAction, relayKeptResponse } from './kept-responses'
import { readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'
import type { RelayCaller } from '../caller'

/**
 * The channel and key that keep the response a request continues, to be preferred by routing; a 400
 * when Ferry knows no such response of the user's (another user's included: the same answer, word for word).
 */
async function keepingPlace(dependencies: Dependencies, caller: RelayCaller, previous: unknown): Promise<KeptResponsePlace | undefined> {
	if (typeof previous !== 'string' || !previous) return undefined
	const place = await keptResponsePlace(dependencies.store, previous, caller.user.id)
	if (place === undefined) {
		throw new RelayError(400, `Previous response with id '${previous}' not found. Only responses created through this gateway on a channel that speaks the Responses API, with store not false, can be continued; send the whole conversation in input instead.`, 'invalid_request_error', 'previous_response_not_found')
	}
	if (caller.pinnedChannelId !== undefined && caller.pinnedChannelId !== place.channelId) throw relayErrors.badRequest(`previous_response_id: the response ${previous} was created on another channel than the one this key pins`)
	return place
}

/**
 * `POST /v1/responses` (`compaction` false) and `POST /v1/responses/compact`: a compaction goes only
 * to a channel that speaks the API (a 400 for a model no such channel serves), is answered whole as
 * the upstream sent it, billed by its usage, and keeps nothing.
 */
function relayResponses(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, compaction = false): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		if (!isObject(value)) throw relayErrors.badRequest('the request body must be a JSON object')
		const canonical = compaction ? canonicalCompactionFromResponses(value, text) : canonicalRequestFromResponses(value, text)
		const keeping = await keepingPlace(dependencies, caller, value.previous_response_id)
		const identity = responseIdentity(value, typeof value.model === 'string' ? value.model : '', nowSeconds())
		const remember: Remember | undefined = value.store === false || compaction ? undefined : async (responseId, { channelId, keyIndex }) => {
			try {
				await rememberResponse(dependencies.store, { responseId, userId: caller.user.id, channelId, keyIndex })
			} catch (error) {
				// The answer is billed and on its way: a lost record only makes the response unreachable later.
				dependencies.logger.error('remembering a kept response failed', { channelId, error: String(error) })
			}
		}
		return { call: { request: canonical, caller, preferredChannelId: keeping?.channelId, preferredKeyIndex: keeping?.keyIndex }, format: responsesClientFormat(identity, remember) }
	})
}

/**
 * `POST /v1/responses/input_tokens`: the input counted locally with the gateway's tokenizer, as the
 * request would be bridged. Free, but counted by the request rate limits like any call.
 */
async function countResponseTokens(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const succeeded = await relay.requestLimits.admit(caller)
		const counted = Response.json({ object: 'response.input_tokens', input_tokens: (await countRequestTokens(request, relay.bodyGate(caller), 'responses')).tokens })
		succeeded?.()
		return counted
	} catch (error) {
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}

type Context = { request: Request; server: Parameters<Dependencies['clientAddress']>[0]; params: { id: string } }

export function responsesRoutes(dependencies: Dependencies, relay: RelayServices) {
	const kept = (action: KeptAction) => ({ request, server, params }: Context) =>
		relayKeptResponse(dependencies, relay, request, dependencies.clientAddress(server, request), params.id, action)
	return new Elysia({ prefix: '/v1/responses' })
		.post('', ({ request, server }) => relayResponses(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/input_tokens', ({ request, server }) => countResponseTokens(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/compact', ({ request, server }) => relayResponses(dependencies, relay, request, dependencies.clientAddress(server, request), true), { parse: 'none' })
		.get('/:id', kept({ method: 'GET', suffix: '' }))
		.delete('/:id', kept({ method: 'DELETE', suffix: '' }), { parse: 'none' })
		.get('/:id/input_items', kept({ method: 'GET', suffix: '/input_items' }))
		.post('/:id/cancel', kept({ method: 'POST', suffix: '/cancel' }), { parse: 'none' })
}
