import { CHANNEL_TYPE } from '@shared/channel-type'
import type { RelayEndpoint } from '../types'
import { openAICompatible } from '../openai-compatible'

const WORKERS_AI_PATHS: Partial<Record<RelayEndpoint, string>> = {
	chat: 'chat/completions',
	embeddings: 'embeddings',
}

/** Workers AI's OpenAI-compatible endpoints; the account ID is the channel's `other` field. */
export const cloudflare = openAICompatible({
	type: CHANNEL_TYPE.cloudflare,
	name: 'Cloudflare',
	defaultBaseUrl: 'https://api.cloudflare.com',
	defaultModels: ['@cf/meta/llama-3.3-70b-instruct-fp8-fast', '@cf/meta/llama-3.1-8b-instruct', '@cf/baai/bge-base-en-v1.5'],
	endpoints: ['chat', 'embeddings'],
	url: (channel, endpoint) => `${channel.baseUrl}/client/v4/accounts/${encodeURIComponent(channel.other)}/ai/v1/${WORKERS_AI_PATHS[endpoint]}`,
})
