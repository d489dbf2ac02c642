import { CHANNEL_TYPE } from '@shared/channel-type'
import type { RelayEndpoint } from '../types'
import { openAICompatible } from '../openai-compatible'

const COMPATIBLE_MODE_PATHS: Record<RelayEndpoint, string> = {
	chat: '/compatible-mode/v1/chat/completions',
	completions: '/compatible-mode/v1/completions',
	embeddings: '/compatible-mode/v1/embeddings',
}

/** Alibaba DashScope (Qwen) through its OpenAI-compatible mode. */
export const ali = openAICompatible({
	type: CHANNEL_TYPE.ali,
	name: 'Alibaba Qwen',
	defaultBaseUrl: 'https://dashscope.aliyuncs.com',
	url: (channel, endpoint) => `${channel.baseUrl}${COMPATIBLE_MODE_PATHS[endpoint]}`,
})
