/**
 * The Gemini-format endpoints (`/v1beta/models/{model}:{method}`): the request becomes an
 * OpenAI-format call through the same pipeline (auth, billing, routing, logs), and its answer is
 * turned back into Gemini's shape. The key comes as `x-goog-api-key` or `?key=`, as Google's own.
 */
import type { Dependencies } from '@/dependencies'
import { relayOpenAI } from '../../pipeline/openai-call'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey } from '../../pipeline/token-auth'
import type { RelayEndpoint } from '../../providers/types'
import { geminiAnswerFromOpenAI, geminiStreamFromOpenAI } from './client-answer'
import { GeminiRequestError, openAIChatFromGemini, openAIEmbeddingsFromGemini } from './client-request'
import { geminiErrorFromOpenAI, geminiErrorResponse } from './errors'

const METHODS = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents'] as const
type GeminiMethod = (typeof METHODS)[number]

const isMethod = (value: string): value is GeminiMethod => (METHODS as readonly string[]).includes(value)

function geminiKey(request: Request, url: URL) {
	return request.headers.get('x-goog-api-key')?.trim() || url.searchParams.get('key')?.trim() || bearerKey(request.headers)
}

async function openAIBody(request: Request, method: GeminiMethod, model: string): Promise<{ endpoint: RelayEndpoint; body: Record<string, unknown> }> {
	let json: unknown
	try {
		json = await request.json()
	} catch {
		throw new GeminiRequestError('the request body is not valid JSON')
	}
	if (method === 'embedContent' || method === 'batchEmbedContents') {
		return { endpoint: 'embeddings', body: openAIEmbeddingsFromGemini(json, model, method === 'batchEmbedContents') }
	}
	return { endpoint: 'chat', body: openAIChatFromGemini(json, model, method === 'streamGenerateContent') }
}

function geminiAnswer(method: GeminiMethod, answer: Record<string, unknown>, model: string) {
	if (method === 'embedContent' || method === 'batchEmbedContents') {
		const vectors = (Array.isArray(answer.data) ? answer.data : []).map((item: { embedding?: unknown }) => ({ values: item.embedding }))
		return method === 'embedContent' ? { embedding: vectors[0] ?? { values: [] } } : { embeddings: vectors }
	}
	return geminiAnswerFromOpenAI(answer, model)
}

/** `path` is what follows `/v1beta/models/`: `{model}:{method}`. */
export async function relayGemini(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, path: string): Promise<Response> {
	const url = new URL(request.url)
	const separator = path.lastIndexOf(':')
	const model = decodeURIComponent(separator > 0 ? path.slice(0, separator) : path)
	const method = separator > 0 ? path.slice(separator + 1) : ''
	if (!isMethod(method)) return geminiErrorResponse(404, `the method ${method || '(none)'} of models/${model} is not supported by this gateway`)
	const key = geminiKey(request, url)
	if (!key) return geminiErrorResponse(401, 'no API key provided: send it as the x-goog-api-key header or the key query parameter')
	let converted: Awaited<ReturnType<typeof openAIBody>>
	try {
		converted = await openAIBody(request, method, model)
	} catch (error) {
		if (error instanceof GeminiRequestError) return geminiErrorResponse(400, error.message)
		throw error
	}
	const response = await relayOpenAI(dependencies, relay, converted.endpoint, request, clientAddress, { key, body: converted.body })
	if (!response.ok) return geminiErrorFromOpenAI(response)
	const headers = { 'x-ferry-request-id': response.headers.get('x-ferry-request-id') ?? '' }
	if (method === 'streamGenerateContent' && response.body) {
		const sse = url.searchParams.get('alt') === 'sse'
		return new Response(geminiStreamFromOpenAI(response.body, model, sse ? 'sse' : 'json-array'), {
			headers: { ...headers, 'content-type': sse ? 'text/event-stream' : 'application/json', 'cache-control': 'no-cache' },
		})
	}
	return Response.json(geminiAnswer(method, await response.json() as Record<string, unknown>, model), { headers })
}
