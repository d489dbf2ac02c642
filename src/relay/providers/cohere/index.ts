import { bearer } from '../openai-compatible'
import { rerankFromCohere } from '../shared/cohere-rerank'
import { identityOf, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { cohereType } from './capabilities'
import { cohereStreamToOpenAI, cohereToOpenAI } from './answer'
import { cohereEmbedBody, openAIEmbeddingsFromCohere } from './embeddings'
import { cohereChatBody } from './request'
import { cohereRerankBody } from './rerank'

/** The largest page `GET /v1/models` answers. */
const MODEL_LIST_PAGE_SIZE = 1000

const post = (channel: UpstreamChannel, path: string, body: Record<string, unknown>) => ({
	url: `${channel.baseUrl}${path}`,
	headers: { 'content-type': 'application/json', ...bearer(channel) },
	body: JSON.stringify(body),
})

export const cohere: ProviderAdaptor = {
	...identityOf(cohereType),
	// `GET /v1/models` pages by 20 unless asked for more: one page of the largest size holds the catalogue.
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl}/v1/models?page_size=${MODEL_LIST_PAGE_SIZE}`, headers: bearer(channel) }),
		names: (answer) => {
			const models = (answer as { models?: unknown } | null)?.models
			return Array.isArray(models) ? models.map((model) => (model as { name?: unknown } | null)?.name) : []
		},
	},
	converted: {
		chat: {
			buildRequest: (channel, body) => post(channel, '/v2/chat', cohereChatBody(body)),
			toOpenAI: cohereToOpenAI,
			streamToOpenAI: cohereStreamToOpenAI,
		},
		embeddings: {
			buildRequest: (channel, body) => post(channel, '/v1/embed', cohereEmbedBody(body)),
			toOpenAI: openAIEmbeddingsFromCohere,
		},
		rerank: {
			buildRequest: (channel, body) => post(channel, '/v1/rerank', cohereRerankBody(body)),
			toOpenAI: rerankFromCohere,
		},
	},
}
