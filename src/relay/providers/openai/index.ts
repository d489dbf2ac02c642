import { CHANNEL_TYPE } from '@shared/channel-type'
import { MEDIA_ENDPOINTS, type UpstreamChannel } from '../types'
import { bearer, openAICompatible } from '../openai-compatible'
import { openAIVideos } from '../openai-compatible/videos'
import { readOpenAIBilling } from './balance'

const headers = (channel: UpstreamChannel) => ({
	...bearer(channel),
	...(channel.organization ? { 'openai-organization': channel.organization } : {}),
})

export const openai = openAICompatible({
	type: CHANNEL_TYPE.openai,
	name: 'OpenAI',
	defaultBaseUrl: 'https://api.openai.com',
	defaultModels: [
		'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini',
		'text-embedding-3-small', 'text-embedding-3-large',
	],
	// OpenAI has no rerank API, but type 1 often points at another gateway that serves `/v1/rerank`.
	endpoints: ['chat', 'completions', 'embeddings', 'rerank', ...MEDIA_ENDPOINTS],
	headers,
	readBalance: readOpenAIBilling,
	responses: { url: (channel) => `${channel.baseUrl}/v1/responses` },
	realtime: (channel, model) => `${channel.baseUrl}/v1/realtime?model=${encodeURIComponent(model)}`,
	videos: openAIVideos({ base: (channel) => `${channel.baseUrl}/v1/videos`, headers }),
})
