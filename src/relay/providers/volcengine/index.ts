import { CHANNEL_TYPE } from '@shared/channel-type'
import type { RelayEndpoint } from '../types'
import { openAICompatible } from '../openai-compatible'

/** Ark's API lives under `/api/v3`, not `/v1`. */
const ARK_PATHS: Partial<Record<RelayEndpoint, string>> = {
	chat: '/api/v3/chat/completions',
	embeddings: '/api/v3/embeddings',
}

export const volcengine = openAICompatible({
	type: CHANNEL_TYPE.volcengine,
	name: 'Volcengine',
	defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
	endpoints: ['chat', 'embeddings'],
	url: (channel, endpoint) => `${channel.baseUrl}${ARK_PATHS[endpoint]}`,
})
