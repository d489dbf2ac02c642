/**
 * Google's Gemini API paths, answered in Gemini's format (design §5): `/v1beta/models/{model}:{method}`,
 * and the same under `/v1`, which `@google/genai` calls by default (its default API version is v1).
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { RelayError, relayFailure } from '../../errors'
import type { RelayServices } from '../../pipeline/services'
import { geminiErrorResponse } from './errors'
import { relayGemini } from './handler'

export function geminiRoutes(dependencies: Dependencies, relay: RelayServices) {
	const handle = async ({ request, server, params }: { request: Request; server: Parameters<Dependencies['clientAddress']>[0]; params: Record<string, string> }) => {
		try {
			return await relayGemini(dependencies, relay, request, dependencies.clientAddress(server, request), params['*'] ?? '')
		} catch (error) {
			return relayFailure(error, dependencies.logger, geminiErrorResponse)
		}
	}
	return new Elysia()
		.post('/v1beta/models/*', handle, { parse: 'none' })
		.post('/v1/models/*', handle, { parse: 'none' })
		.all('/v1beta/*', ({ request }) => geminiErrorResponse(new RelayError(404, `${new URL(request.url).pathname} is not supported by this gateway`)))
}
