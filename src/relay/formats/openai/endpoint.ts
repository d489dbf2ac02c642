/**
 * The OpenAI-format endpoints (`/v1/chat/completions`, `/v1/completions`, `/v1/embeddings`,
 * `/v1/rerank`): the key is authenticated before the body is read; the body is the canonical form
 * already, so an OpenAI-format channel gets the client's own bytes while Ferry changes nothing in
 * them (upstream/open.ts).
 */
import type { Dependencies } from '@/dependencies'
import { openAIErrorResponse } from '../../errors'
import { respond } from '../../pipeline/respond'
import type { RelayServices } from '../../pipeline/services'
import { readJsonCall } from '../../pipeline/read-body'
import { bearerKey } from '../../pipeline/token-auth'
import type { RelayEndpoint } from '../../providers/types'
import { canonicalFromOpenAI } from '../canonical'
import { isObject } from '../json'
import { openAIClientFormat } from './client'

export function relayOpenAI(dependencies: Dependencies, relay: RelayServices, endpoint: RelayEndpoint, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		const body = isObject(value) ? canonicalFromOpenAI(value) : value
		return { call: { endpoint, caller, body, bodyText: body === value ? text : undefined }, format: openAIClientFormat }
	})
}
