import { bearer, openAICompatible } from '../openai-compatible'
import { openAIModelNames } from '../openai-compatible/model-list'
import { identityOf } from '../types'
import { aliType } from './capabilities'

/** Alibaba DashScope (Qwen) through its OpenAI-compatible mode. */
export const ali = openAICompatible({
	...identityOf(aliType),
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
