import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer } from '../openai-compatible'
import { rerankFromCohere } from '../shared/cohere-rerank'
import type { ProviderAdaptor, UpstreamChannel } from '../types'
import { cohereStreamToOpenAI, cohereToOpenAI } from './answer'
import { cohereEmbedBody, openAIEmbeddingsFromCohere } from './embeddings'
import { cohereChatBody } from './request'
import { cohereRerankBody } from './rerank'

const post = (channel: UpstreamChannel, path: string, body: Record<string, unknown>) => ({
	url: `${channel.baseUrl}${path}`,
	headers: { 'content-type': 'application/json', ...bearer(channel) },
	body: JSON.stringify(body),
})

export const cohere: ProviderAdaptor = {
	type: CHANNEL_TYPE.cohere,
	name: 'Cohere',
	defaultBaseUrl: 'https://api.cohere.com',
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
