/**
 * The shared base for upstreams that speak OpenAI's wire format. A provider is this base plus a
 * small difference: its base URL, its paths or how it builds the URL, and its auth headers; and
 * what the console shows of its type (name, key format, default models).
 */
import type { ModelList, ProviderAdaptor, RelayEndpoint, SocketRoute, UpstreamChannel, VideoAdaptor } from '../types'
import { openAIModelList } from './model-list'
import { responsesPassThrough, type ResponsesRoute } from './responses'

export const OPENAI_PATHS: Record<RelayEndpoint, string> = {
	chat: '/v1/chat/completions',
	completions: '/v1/completions',
	embeddings: '/v1/embeddings',
	rerank: '/v1/rerank',
	'image-generations': '/v1/images/generations',
	'image-edits': '/v1/images/edits',
	'image-variations': '/v1/images/variations',
	speech: '/v1/audio/speech',
	transcriptions: '/v1/audio/transcriptions',
	translations: '/v1/audio/translations',
	moderations: '/v1/moderations',
	videos: '/v1/videos',
}

/** What an OpenAI-format upstream serves unless it says otherwise: rerank is not OpenAI's own API. */
const DEFAULT_ENDPOINTS: readonly RelayEndpoint[] = ['chat', 'completions', 'embeddings']

interface OpenAICompatibleOptions extends Pick<ProviderAdaptor, 'type' | 'name' | 'defaultBaseUrl' | 'keyFormat' | 'defaultModels' | 'readBalance' | 'reasoningContent' | 'thinkingFields'> {
	/** The endpoints served; by default those `paths` names, or chat, completions and embeddings. */
	endpoints?: readonly RelayEndpoint[]
	/** Each endpoint's path under the base URL; OpenAI's `/v1` paths by default. */
	paths?: Partial<Record<RelayEndpoint, string>>
	/** Builds the whole URL instead of base URL + path. */
	url?: (channel: UpstreamChannel, endpoint: RelayEndpoint, model: string) => string
	headers?: (channel: UpstreamChannel) => Record<string, string>
	/** How to list the upstream's models; OpenAI's `GET /v1/models` with a bearer key unless said otherwise. */
	modelList?: ModelList
	/** Where the upstream serves OpenAI's Responses API natively, if it does (else Responses calls are bridged to chat). */
	responses?: ResponsesRoute
	/** The Realtime API's socket URL for a model, if the upstream serves it. */
	realtime?: (channel: UpstreamChannel, model: string) => string
	/** Its Videos API (openai-compatible/videos.ts), if it serves one. */
	videos?: VideoAdaptor
}

/** An http(s) URL as the ws(s) URL of the same place. */
export const webSocketUrl = (url: string) => url.replace(/^http(s?):/i, 'ws$1:')

export const bearer = (channel: UpstreamChannel) => ({ authorization: `Bearer ${channel.key}` })

export function openAICompatible(options: OpenAICompatibleOptions): ProviderAdaptor {
	const paths = options.paths ?? OPENAI_PATHS
	const endpoints = options.endpoints ?? (options.paths ? (Object.keys(options.paths) as RelayEndpoint[]) : DEFAULT_ENDPOINTS)
	const url = options.url ?? ((channel, endpoint) => `${channel.baseUrl || options.defaultBaseUrl}${paths[endpoint]}`)
	const headers = options.headers ?? bearer
	const sockets: Partial<Record<'realtime' | 'responses', SocketRoute>> = {}
	if (options.realtime) sockets.realtime = { url: (channel, model) => webSocketUrl(options.realtime!(channel, model)), headers }
	// The Responses API's WebSocket mode is its create URL, upgraded; the model travels in each message.
	if (options.responses) sockets.responses = { url: (channel) => webSocketUrl(options.responses!.url(channel)), headers, bodyModel: options.responses.model }
	return {
		type: options.type,
		name: options.name,
		defaultBaseUrl: options.defaultBaseUrl,
		...(options.keyFormat ? { keyFormat: options.keyFormat } : {}),
		defaultModels: options.defaultModels,
		modelList: options.modelList ?? openAIModelList,
		...(options.readBalance ? { readBalance: options.readBalance } : {}),
		...(options.responses ? { sameFormat: { responses: responsesPassThrough(options.responses, headers) } } : {}),
		...(Object.keys(sockets).length > 0 ? { sockets } : {}),
		...(options.videos ? { videos: options.videos } : {}),
		...(options.reasoningContent ? { reasoningContent: options.reasoningContent } : {}),
		...(options.thinkingFields ? { thinkingFields: options.thinkingFields } : {}),
		openai: {
			endpoints,
			buildRequest(channel, endpoint, body, text) {
				return {
					url: url(channel, endpoint, String(body.model)),
					headers: { 'content-type': 'application/json', ...headers(channel) },
					// The client's own bytes when Ferry changed nothing in them (same-format traffic, docs/architecture.md#the-relay).
					body: text ?? JSON.stringify(body),
				}
			},
		},
	}
}
