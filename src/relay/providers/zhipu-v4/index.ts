/**
 * Type 26, Zhipu GLM v4: OpenAI-compatible under `/api/paas/v4`, authorised with the same JWT as
 * v3 as a Bearer token, signed for each request with the wall clock.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'
import { openAICompatible } from '../openai-compatible'
import { zhipuToken } from '../zhipu/jwt'

const compatible = openAICompatible({
	type: CHANNEL_TYPE.zhipuV4,
	name: 'Zhipu GLM v4',
	defaultBaseUrl: 'https://open.bigmodel.cn',
	paths: {
		chat: '/api/paas/v4/chat/completions',
		embeddings: '/api/paas/v4/embeddings',
	},
	// The key is no bearer token: the JWT made from it is added by signedHeaders below.
	headers: () => ({}),
})

export const zhipuV4: ProviderAdaptor = {
	...compatible,
	openai: {
		...compatible.openai!,
		signedHeaders: async (channel, now) => ({ authorization: `Bearer ${await zhipuToken(channel.key, now)}` }),
	},
}
