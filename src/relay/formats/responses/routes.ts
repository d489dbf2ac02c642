/** OpenAI's Responses API paths under `/v1` (endpoint.ts, kept.ts); everything else under `/v1/responses` answers 501 with the rest of `/v1`. */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { RelayServices } from '../../pipeline/services'
import { countResponseTokens, relayResponses } from './endpoint'
import { relayKeptResponse, type KeptAction } from './kept'

type Context = { request: Request; server: Parameters<Dependencies['clientAddress']>[0]; params: { id: string } }

export function responsesRoutes(dependencies: Dependencies, relay: RelayServices) {
	const kept = (action: KeptAction) => ({ request, server, params }: Context) =>
		relayKeptResponse(dependencies, relay, request, dependencies.clientAddress(server, request), decodeURIComponent(params.id), action)
	return new Elysia({ prefix: '/v1/responses' })
		.post('', ({ request, server }) => relayResponses(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/input_tokens', ({ request, server }) => countResponseTokens(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.get('/:id', kept({ method: 'GET', suffix: '' }))
		.delete('/:id', kept({ method: 'DELETE', suffix: '' }), { parse: 'none' })
		.get('/:id/input_items', kept({ method: 'GET', suffix: '/input_items' }))
		.post('/:id/cancel', kept({ method: 'POST', suffix: '/cancel' }), { parse: 'none' })
}
