/**
 * The Gemini client format's HTTP edge: Google's paths `/v1beta/models/{model}:{method}`, and the
 * same under `/v1`, which `@google/genai` calls by default (its default API version is v1). The key
 * comes as `x-goog-api-key` or `?key=`, as Google's own. The request becomes the canonical request
 * (formats/gemini/client-request.ts) — with the client's own body for `generateContent` and
 * `streamGenerateContent`, for a channel that speaks Gemini's API — and every failure answers in
 * Gemini's shape.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { RelayError, relayFailure } from '../errors'
import { canonicalRequestFromGemini, geminiClientFormat, isGeminiMethod } from '../formats/gemini/client'
import { geminiErrorResponse } from '../formats/gemini/errors'
import type { RelayServices } from '../services'
import { readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'

function geminiKey(request: Request, url: URL) {
	return request.headers.get('x-goog-api-key')?.trim() || url.searchParams.get('key')?.trim() || bearerKey(request.headers)
}

/** `path` is what follows `/v1beta/models/`: `{model}:{method}`. Failures are thrown, for the route to answer. */
async function relayGemini(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, path: string): Promise<Response> {
	const url = new URL(request.url)
	const separator = path.lastIndexOf(':')
	const model = decodeURIComponent(separator > 0 ? path.slice(0, separator) : path)
	const method = separator > 0 ? path.slice(separator + 1) : ''
	if (!isGeminiMethod(method)) throw new RelayError(404, `the method ${method || '(none)'} of models/${model} is not supported by this gateway`)
	const key = geminiKey(request, url)
	if (!key) throw new RelayError(401, 'no API key provided: send it as the x-goog-api-key header or the key query parameter')
	const format = geminiClientFormat(method, model, url.searchParams.get('alt') === 'sse' ? 'sse' : 'json-array')
	return respond(dependencies, relay, request, clientAddress, geminiErrorResponse, async () => {
		const caller = await relay.authenticate(key, clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		return { call: { request: canonicalRequestFromGemini(method, model, value, text), caller }, format }
	})
}

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
