import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const jinaType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.jina,
	name: 'Jina',
	defaultBaseUrl: 'https://api.jina.ai',
	defaultModels: ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'],
	serves: {
		endpoints: { embeddings: { stream: false }, rerank: { stream: false } },
		nativeFormats: [],
		listsModels: true,
		readsBalance: false,
		sockets: [],
	},
}
