/**
 * The OpenAI client format's HTTP edge: `/v1/chat/completions`, `/v1/completions`, `/v1/embeddings`
 * and `/v1/rerank` — the key is authenticated before the body is read; the body is the canonical
 * form already, so an OpenAI-format channel gets the client's own bytes while Ferry changes nothing
 * in them (upstream/open.ts) — and the model list, `/v1/models` and `/v1/models/{model}`: the models
 * the caller's group is served, within the token's model limits.
 */
import type { Dependencies } from '@/dependencies'
import { openAIErrorResponse, relayErrors, relayFailure } from '../errors'
import { canonicalRequestFromOpenAI } from '../formats/canonical'
import { openAIClientFormat } from '../formats/openai/client'
import type { RelayEndpoint } from '../providers/types'
import { resolveGroup } from '../routing/groups'
import type { RelayServices } from '../services'
import { readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'

export function relayOpenAI(dependencies: Dependencies, relay: RelayServices, endpoint: RelayEndpoint, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		return { call: { request: canonicalRequestFromOpenAI(endpoint, value, text), caller }, format: openAIClientFormat }
	})
}

const OPENAI_MODEL_OWNER = 'ferry'

/** `GET /v1/models`, and `GET /v1/models/{model}` when `model` (the path's, decoded) is given; failures in OpenAI's shape. */
export async function listModels(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, model?: string): Promise<Response> {
	try {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		await relay.routing.ready()
		const group = resolveGroup(dependencies.options, caller, '', () => false)
		const models = relay.routing.models(group)
			.filter((id) => !caller.token.modelLimits || caller.token.modelLimits.has(id))
			.map((id) => ({ id, object: 'model', created: dependencies.startTime, owned_by: OPENAI_MODEL_OWNER }))
		if (model === undefined) return Response.json({ object: 'list', data: models })
		const found = models.find((entry) => entry.id === model)
		if (!found) throw relayErrors.modelNotFound(model)
		return Response.json(found)
	} catch (error) {
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}
