/**
 * Google Gemini (type 24): the Gemini API's own wire format, key in `x-goog-api-key`. OpenAI-format
 * calls convert; Gemini-format chat calls pass through with the client's own body.
 */
import { identityOf, type Converter, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { geminiType } from './capabilities'
import { openAIAnswerFromGemini, openAIStreamFromGemini } from './chat-answer'
import { geminiRequestFromOpenAI } from './chat-request'
import { geminiEmbeddingRequest, openAIEmbeddingsFromGemini } from './embeddings'
import { geminiVideos } from './videos'

const DEFAULT_API_VERSION = 'v1beta'

/** Model names may arrive as Gemini writes them, `models/<name>`. */
export function geminiModelName(model: unknown) {
	return String(model ?? '').replace(/^models\//, '')
}

/** `other` may pin another API version (`v1`); empty means v1beta, where every current model is. */
function modelUrl(channel: UpstreamChannel, model: string, method: string) {
	return `${channel.baseUrl}/${channel.other || DEFAULT_API_VERSION}/models/${encodeURIComponent(model)}:${method}`
}

/** generateContent, or streamGenerateContent as SSE events (`alt=sse`), whatever framing the client asked for. */
const chatUrl = (channel: UpstreamChannel, model: string, stream: boolean) =>
	stream ? `${modelUrl(channel, model, 'streamGenerateContent')}?alt=sse` : modelUrl(channel, model, 'generateContent')

const headers = (channel: UpstreamChannel) => ({ 'content-type': 'application/json', 'x-goog-api-key': channel.key })

/** The chat converter, shared with Vertex AI, which serves the same format under another URL and auth. */
export function geminiChatConverter(request: Converter['buildRequest']): Converter {
	return { buildRequest: request, toOpenAI: openAIAnswerFromGemini, streamToOpenAI: openAIStreamFromGemini }
}

export const gemini: ProviderAdaptor = {
	...identityOf(geminiType),
	// `GET /v1beta/models` answers `{models: [{name: "models/…"}]}`; the names are used without `models/`.
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl.replace(/\/v1beta$/, '')}/v1beta/models`, headers: { 'x-goog-api-key': channel.key } }),
		names: (answer) => {
			const models = (answer as { models?: unknown } | null)?.models
			return Array.isArray(models) ? models.map((model) => geminiModelName((model as { name?: unknown } | null)?.name)) : []
		},
	},
	converted: {
		chat: geminiChatConverter((channel, body, _context, extras) => ({
			url: chatUrl(channel, geminiModelName(body.model), body.stream === true),
			headers: headers(channel),
			body: JSON.stringify(geminiRequestFromOpenAI(body, extras)),
		})),
		embeddings: {
			buildRequest(channel, body) {
				const model = geminiModelName(body.model)
				return { url: modelUrl(channel, model, 'batchEmbedContents'), headers: headers(channel), body: JSON.stringify(geminiEmbeddingRequest(body, model)) }
			},
			toOpenAI: openAIEmbeddingsFromGemini,
		},
	},
	// A Gemini client's own body goes as it came: the model is in the path. Streams are always asked as SSE.
	sameFormat: {
		gemini: {
			buildRequest: (channel, call) => ({ url: chatUrl(channel, geminiModelName(call.model), call.stream), headers: headers(channel), body: call.body }),
		},
	},
	// Veo (`/v1/videos` from OpenAI clients): predictLongRunning, then the operation polled.
	videos: geminiVideos,
}
