import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer, openAICompatible } from '../openai-compatible'
import { openAIModelNames } from '../openai-compatible/model-list'

/** Alibaba DashScope (Qwen) through its OpenAI-compatible mode. */
export const ali = openAICompatible({
	type: CHANNEL_TYPE.ali,
	name: 'Alibaba Qwen',
	defaultBaseUrl: 'https://dashscope.aliyuncs.com',
	defaultModels: ['qwen-max', 'qwen-plus', 'qwen-turbo', 'qwen-long', 'text-embedding-v3'],
	paths: {
		chat: '/compatible-mode/v1/chat/completions',
		completions: '/compatible-mode/v1/completions',
		embeddings: '/compatible-mode/v1/embeddings',
	},
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl.replace(/\/compatible-mode$/, '')}/compatible-mode/v1/models`, headers: bearer(channel) }),
		names: openAIModelNames,
	},
})
