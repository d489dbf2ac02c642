/**
 * The Gemini-format endpoints (`/v1beta/models/{model}:{method}`): the request becomes an
 * OpenAI-format call through the same pipeline (auth, billing, routing, logs). A channel that speaks
 * Gemini's API gets the client's own body for `generateContent` and `streamGenerateContent`, and its
 * answer reaches the client as it came; any other answer is turned into Gemini's shape. The key
 * comes as `x-goog-api-key` or `?key=`, as Google's own.
 */
import type { Dependencies } from '@/dependencies'
import { RelayError } from '../../errors'
import { readJsonCall } from '../../pipeline/read-body'
import { respond } from '../../pipeline/respond'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey } from '../../pipeline/token-auth'
import type { NativeRequest } from '../../providers/types'
import type { ClientFormat } from '../client-format'
import { encodedStream } from '../events'
import { isObject } from '../json'
import { geminiAnswerFromOpenAI, geminiStreamEncoder } from './client-answer'
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

/** The client's own chat request, for a channel that speaks Gemini's API: its body names no model, so it goes byte for byte. */
function geminiNativeRequest(text: string, body: Record<string, unknown>): NativeRequest {
	return { format: 'gemini', bodyFor: () => text, value: body, headers: {}, search: '' }
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
	const framing = url.searchParams.get('alt') === 'sse' ? 'sse' : 'json-array'
	const format: ClientFormat = {
		answerText: (answer, wire, text) => (wire === 'gemini' ? text ?? JSON.stringify(answer) : JSON.stringify(geminiAnswer(method, answer, model))),
		stream: (events, wire) => encodedStream(events, geminiStreamEncoder(wire, model, framing)),
		streamContentType: framing === 'sse' ? 'text/event-stream' : 'application/json',
	}
	return respond(dependencies, relay, request, clientAddress, geminiErrorResponse, async () => {
		const caller = await relay.authenticate(key, clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		const chat = !isEmbedding(method)
		const body = chat ? openAIChatFromGemini(value, model, method === 'streamGenerateContent') : openAIEmbeddingsFromGemini(value, model, method === 'batchEmbedContents')
		const native = chat && isObject(value) ? geminiNativeRequest(text, value) : undefined
		return { call: { endpoint: chat ? 'chat' : 'embeddings', caller, body, native }, format }
	})
}
