import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const jinaType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.jina,
	name: 'Jina',
	defaultBaseUrl: 'https://api.jina.ai',
	defaultModels: ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'],
	serves: serving({
		endpoints: { embeddings: { stream: false }, rerank: { stream: false } },
		listsModels: true,
	}),
}
