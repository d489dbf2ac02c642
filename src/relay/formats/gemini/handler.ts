/**
 * The Gemini-format endpoints (`/v1beta/models/{model}:{method}`): the request becomes an
 * OpenAI-format call through the same pipeline (auth, billing, routing, logs), and its answer is
 * turned back into Gemini's shape. The key comes as `x-goog-api-key` or `?key=`, as Google's own.
 */
import type { Dependencies } from '@/dependencies'
import { RelayError } from '../../errors'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey } from '../../pipeline/token-auth'
import { relayInFormat } from '../client-format'
import { readJsonBody } from '../openai/requests'
import { geminiAnswerFromOpenAI, geminiStreamFromOpenAI } from './client-answer'
import { openAIChatFromGemini, openAIEmbeddingsFromGemini } from './client-request'
import { geminiErrorResponse } from './errors'

const METHODS = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents'] as const
type GeminiMethod = (typeof METHODS)[number]

const isMethod = (value: string): value is GeminiMethod => (METHODS as readonly string[]).includes(value)

function geminiKey(request: Request, url: URL) {
	return request.headers.get('x-goog-api-key')?.trim() || url.searchParams.get('key')?.trim() || bearerKey(request.headers)
}

const isEmbedding = (method: GeminiMethod) => method === 'embedContent' || method === 'batchEmbedContents'

function geminiAnswer(method: GeminiMethod, answer: Record<string, unknown>, model: string) {
	if (isEmbedding(method)) {
		const vectors = (Array.isArray(answer.data) ? answer.data : []).map((item: { embedding?: unknown }) => ({ values: item.embedding }))
		return method === 'embedContent' ? { embedding: vectors[0] ?? { values: [] } } : { embeddings: vectors }
	}
	return geminiAnswerFromOpenAI(answer, model)
}

/** `path` is what follows `/v1beta/models/`: `{model}:{method}`. Failures are thrown, for the route to answer. */
export async function relayGemini(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, path: string): Promise<Response> {
	const url = new URL(request.url)
	const separator = path.lastIndexOf(':')
	const model = decodeURIComponent(separator > 0 ? path.slice(0, separator) : path)
	const method = separator > 0 ? path.slice(separator + 1) : ''
	if (!isMethod(method)) throw new RelayError(404, `the method ${method || '(none)'} of models/${model} is not supported by this gateway`)
	const key = geminiKey(request, url)
	if (!key) throw new RelayError(401, 'no API key provided: send it as the x-goog-api-key header or the key query parameter')
	const json = await readJsonBody(request)
	const call = isEmbedding(method)
		? { endpoint: 'embeddings' as const, key, body: openAIEmbeddingsFromGemini(json, model, method === 'batchEmbedContents') }
		: { endpoint: 'chat' as const, key, body: openAIChatFromGemini(json, model, method === 'streamGenerateContent') }
	const sse = url.searchParams.get('alt') === 'sse'
	return relayInFormat(dependencies, relay, request, clientAddress, call, {
		respondError: geminiErrorResponse,
		answer: (openAI) => geminiAnswer(method, openAI, model),
		stream: (reader) => geminiStreamFromOpenAI(reader, model, sse ? 'sse' : 'json-array'),
		streamContentType: sse ? 'text/event-stream' : 'application/json',
	})
}
