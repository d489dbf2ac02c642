import { identityOf, type RelayEndpoint } from '../types'
import { cloudflareType } from './capabilities'
import { openAICompatible } from '../openai-compatible'

const WORKERS_AI_PATHS: Partial<Record<RelayEndpoint, string>> = {
	chat: 'chat/completions',
	embeddings: 'embeddings',
}

/** Workers AI's OpenAI-compatible endpoints; the account ID is the channel's `other` field. */
export const cloudflare = openAICompatible({
	...identityOf(cloudflareType),
	endpoints: ['chat', 'embeddings'],
	url: (channel, endpoint) => `${channel.baseUrl}/client/v4/accounts/${encodeURIComponent(channel.other)}/ai/v1/${WORKERS_AI_PATHS[endpoint]}`,
})
