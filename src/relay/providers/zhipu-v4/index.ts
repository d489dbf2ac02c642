/**
 * Type 26, Zhipu GLM v4: OpenAI-compatible under `/api/paas/v4`, authorised with the same JWT as
 * v3 as a Bearer token, signed for each request with the wall clock.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'
import { bearer, openAICompatible } from '../openai-compatible'
import { openAIModelNames } from '../openai-compatible/model-list'
import { zhipuToken } from '../zhipu/jwt'

const compatible = openAICompatible({
	type: CHANNEL_TYPE.zhipuV4,
	name: 'Zhipu GLM-4V',
	defaultBaseUrl: 'https://open.bigmodel.cn',
	defaultModels: ['glm-4.5', 'glm-4.5-air', 'glm-4-plus', 'glm-4-air', 'glm-4-flash', 'embedding-3'],
	paths: {
		chat: '/api/paas/v4/chat/completions',
		embeddings: '/api/paas/v4/embeddings',
	},
	// The key is no bearer token: the JWT made from it is added by signedHeaders below.
	headers: () => ({}),
	// The list takes the raw key as its bearer token.
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl.replace(/\/api\/paas\/v4$/, '')}/api/paas/v4/models`, headers: bearer(channel) }),
		names: openAIModelNames,
	},
})

export const zhipuV4: ProviderAdaptor = {
	...compatible,
	openai: {
		...compatible.openai!,
		signedHeaders: async (channel, now) => ({ authorization: `Bearer ${await zhipuToken(channel.key, now)}` }),
	},
}
