/**
 * Type 15, Baidu Wenxin (ERNIE) through the legacy Wenxin Workshop API: an OAuth access token
 * from `APIKey|SecretKey` in the query, one URL per model, Baidu's own request and answer format.
 */
import { identityOf, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { baiduType } from './capabilities'
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
	...identityOf(baiduType),
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
