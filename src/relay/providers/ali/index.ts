import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

/** Alibaba DashScope (Qwen) through its OpenAI-compatible mode. */
export const ali = openAICompatible({
	type: CHANNEL_TYPE.ali,
	name: 'Alibaba Qwen',
	defaultBaseUrl: 'https://dashscope.aliyuncs.com',
	paths: {
		chat: '/compatible-mode/v1/chat/completions',
		completions: '/compatible-mode/v1/completions',
		embeddings: '/compatible-mode/v1/embeddings',
	},
})
