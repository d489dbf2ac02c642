import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

/** Ark's API lives under `/api/v3`, not `/v1`. */
export const volcengine = openAICompatible({
	type: CHANNEL_TYPE.volcengine,
	name: 'Volcengine',
	defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
	defaultModels: ['doubao-seed-1-6-250615', 'doubao-1-5-pro-32k-250115', 'doubao-1-5-lite-32k-250115', 'doubao-embedding-text-240715'],
	paths: {
		chat: '/api/v3/chat/completions',
		embeddings: '/api/v3/embeddings',
	},
})
