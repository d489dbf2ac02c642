import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer, openAICompatible } from '../openai-compatible'

export const openai = openAICompatible({
	type: CHANNEL_TYPE.openai,
	name: 'OpenAI',
	defaultBaseUrl: 'https://api.openai.com',
	// OpenAI has no rerank API, but type 1 often points at another gateway that serves `/v1/rerank`.
	endpoints: ['chat', 'completions', 'embeddings', 'rerank'],
	headers: (channel) => ({
		...bearer(channel),
		...(channel.organization ? { 'openai-organization': channel.organization } : {}),
	}),
})
