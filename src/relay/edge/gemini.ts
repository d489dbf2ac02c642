/**
 * The Gemini client format's HTTP edge: Google's paths `/v1beta/models/{model}:{method}`, and the
 * same under `/v1`, which `@google/genai` calls by default (its default API version is v1). The key
 * comes as `x-goog-api-key` or `?key=`, as Google's own. The request becomes the canonical request
 * (formats/gemini/client-request.ts) — with the client's own body for `generateContent` and
 * `streamGenerateContent`, for a channel that speaks Gemini's API — and every failure answers in
 * Gemini's shape. `:countTokens` counts the prompt locally on the tokenizer's thread (free, counted
 * by the request rate limits), and `GET /v1beta/models[/{model}]` lists the caller's models in
 * Gemini's shape (formats/gemini/models.ts).
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { RelayError, relayFailure } from '../errors'
import { canonicalRequestFromGemini, geminiClientFormat, isGeminiMethod } from '../formats/gemini/client'
import { geminiErrorResponse } from '../formats/gemini/errors'
import { geminiModel, modelIdOfName } from '../formats/gemini/models'
import { geminiPromptTokensDetails } from '../formats/gemini/usage'
import { resolveGroup } from '../routing/groups'
import type { RelayServices } from '../services'
import { countRequestTokens } from './count-request'
import { readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'

function geminiKey(request: Request, url: URL) {
	return request.headers.get('x-goog-api-key')?.trim() || url.searchParams.get('key')?.trim() || bearerKey(request.headers)
}

/** Whether a request carries its key as Google's clients do (its answers then take Gemini's shapes). */
export const speaksGemini = (request: Request) => request.headers.has('x-goog-api-key') || new URL(request.url).searchParams.has('key')

const NO_KEY = 'no API key provided: send it as the x-goog-api-key header or the key query parameter'

/** The model in a path's text as sent (a wildcard's, which Elysia leaves encoded); a 400 when it is not percent-encoded UTF-8 (`%FF`). */
function decodedModel(text: string): string {
	try {
		return decodeURIComponent(text)
	} catch {
		throw new RelayError(400, 'the model name in the path is not valid percent-encoded UTF-8')
	}
}

/** `:countTokens`: the prompt (`contents`, or a `generateContentRequest`) counted as it would be relayed. */
async function countGeminiTokens(relay: RelayServices, request: Request, clientAddress: string, key: string): Promise<Response> {
	const caller = await relay.authenticate(key, clientAddress)
	const succeeded = await relay.requestLimits.admit(caller)
	const counted = await countRequestTokens(request, relay.bodyGate(caller), 'gemini')
	succeeded?.()
	return Response.json({ totalTokens: counted.tokens, promptTokensDetails: geminiPromptTokensDetails(counted) })
}

/**
 * `GET /v1beta/models` and `GET /v1beta/models/{model}` (also under `/v1` for a Gemini-keyed call):
 * the models the caller's group is served, within the token's model limits, in Gemini's shape.
 * `name`: the path's model, decoded, or a function answering it (throwing when it cannot be decoded).
 */
export async function listGeminiModels(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, name?: string | (() => string)): Promise<Response> {
	try {
		const key = geminiKey(request, new URL(request.url))
		if (!key) throw new RelayError(401, NO_KEY)
		const caller = await relay.authenticate(key, clientAddress)
		const asked = typeof name === 'function' ? name() : name
		await relay.routing.ready()
		const group = resolveGroup(dependencies.options, caller, '', () => false)
		const ids = relay.routing.models(group).filter((id) => !caller.token.modelLimits || caller.token.modelLimits.has(id))
		if (asked === undefined) return Response.json({ models: ids.map(geminiModel) })
		const id = modelIdOfName(asked)
		if (!ids.includes(id)) throw new RelayError(404, `models/${id} is not found for API version v1beta, or is not supported for this key`)
		return Response.json(geminiModel(id))
	} catch (error) {
		return relayFailure(error, dependencies.logger, geminiErrorResponse)
	}
}

/** `path` is what follows `/v1beta/models/`: `{model}:{method}`. Failures are thrown, for the route to answer. */
async function relayGemini(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, path: string): Promise<Response> {
	const url = new URL(request.url)
	const separator = path.lastIndexOf(':')
	const model = decodedModel(separator > 0 ? path.slice(0, separator) : path)
	const method = separator > 0 ? path.slice(separator + 1) : ''
	const key = geminiKey(request, url)
	if (method === 'countTokens') {
		if (!key) throw new RelayError(401, NO_KEY)
		return countGeminiTokens(relay, request, clientAddress, key)
	}
	if (!isGeminiMethod(method)) throw new RelayError(404, `the method ${method || '(none)'} of models/${model} is not supported by this gateway`)
	if (!key) throw new RelayError(401, NO_KEY)
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
	const list = ({ request, server, params }: { request: Request; server: Parameters<Dependencies['clientAddress']>[0]; params?: Record<string, string> }) => {
		const path = params?.['*']
		return listGeminiModels(dependencies, relay, request, dependencies.clientAddress(server, request), path === undefined ? undefined : () => decodedModel(path))
	}
	return new Elysia()
		.post('/v1beta/models/*', handle, { parse: 'none' })
		.post('/v1/models/*', handle, { parse: 'none' })
		.get('/v1beta/models', list)
		.get('/v1beta/models/*', list)
		.all('/v1beta/*', ({ request }) => geminiErrorResponse(new RelayError(404, `${new URL(request.url).pathname} is not supported by this gateway`)))
}
