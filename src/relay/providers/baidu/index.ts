/**
 * Type 15, Baidu Wenxin (ERNIE) through the legacy Wenxin Workshop API: an OAuth access token
 * from `APIKey|SecretKey` in the query, one URL per model, Baidu's own request and answer format.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor, UpstreamChannel } from '../types'
import { accessToken } from './access-token'
import { toOpenAIAnswer, wenxinErrorOf } from './answer'
import { toOpenAIEmbeddings, wenxinEmbeddingRequest } from './embeddings'
import { chatEndpoint, embeddingEndpoint } from './endpoints'
import { wenxinRequest } from './request'
import { wenxinStreamToOpenAI } from './stream'

const WORKSHOP_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop'

function workshopUrl(channel: UpstreamChannel, path: string, token: string) {
	return `${channel.baseUrl}${WORKSHOP_PATH}/${path}?access_token=${encodeURIComponent(token)}`
}

export const baidu: ProviderAdaptor = {
	type: CHANNEL_TYPE.baidu,
	name: 'Baidu Wenxin',
	defaultBaseUrl: 'https://aip.baidubce.com',
	keyFormat: 'APIKey|SecretKey',
	defaultModels: ['ERNIE-4.0-8K', 'ERNIE-4.0-Turbo-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-128K', 'ERNIE-Lite-8K', 'Embedding-V1'],
	converted: {
		chat: {
			async buildRequest(channel, body, context) {
				const token = await accessToken(channel, context)
				return {
					url: workshopUrl(channel, `chat/${encodeURIComponent(chatEndpoint(String(body.model)))}`, token),
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(wenxinRequest(body)),
				}
			},
			toOpenAI: toOpenAIAnswer,
			errorOf: wenxinErrorOf,
			streamToOpenAI: wenxinStreamToOpenAI,
		},
		embeddings: {
			async buildRequest(channel, body, context) {
				const token = await accessToken(channel, context)
				return {
					url: workshopUrl(channel, `embeddings/${encodeURIComponent(embeddingEndpoint(String(body.model)))}`, token),
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(wenxinEmbeddingRequest(body)),
				}
			},
			toOpenAI: toOpenAIEmbeddings,
		},
	},
}
