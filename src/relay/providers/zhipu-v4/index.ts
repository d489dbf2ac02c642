/**
 * Type 26, Zhipu GLM v4: OpenAI-compatible under `/api/paas/v4`, authorised with the same JWT as
 * v3 as a Bearer token. Pass-through builders get no adaptor context, so the token is signed with
 * the wall clock.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'
import { zhipuToken } from '../zhipu/jwt'

export const zhipuV4 = openAICompatible({
	type: CHANNEL_TYPE.zhipuV4,
	name: 'Zhipu GLM v4',
	defaultBaseUrl: 'https://open.bigmodel.cn',
	paths: {
		chat: '/api/paas/v4/chat/completions',
		embeddings: '/api/paas/v4/embeddings',
	},
	headers: (channel) => ({ authorization: `Bearer ${zhipuToken(channel.key, Date.now())}` }),
})
