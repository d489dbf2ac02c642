import { identityOf, MEDIA_ENDPOINTS, type UpstreamChannel } from '../types'
import { openaiType } from './capabilities'
import { bearer, openAICompatible } from '../openai-compatible'
import { openAIVideos } from '../openai-compatible/videos'
import { readOpenAIBilling } from './balance'
import { openAIReasoningEffort } from './reasoning-effort'

const headers = (channel: UpstreamChannel) => ({
	...bearer(channel),
	...(channel.organization ? { 'openai-organization': channel.organization } : {}),
})

export const openai = openAICompatible({
	...identityOf(openaiType),
	// OpenAI has no rerank API, but type 1 often points at another gateway that serves `/v1/rerank`.
	endpoints: ['chat', 'completions', 'embeddings', 'rerank', ...MEDIA_ENDPOINTS],
	headers,
	readBalance: readOpenAIBilling,
	thinkingFields: openAIReasoningEffort,
	responses: { url: (channel) => `${channel.baseUrl}/v1/responses` },
	realtime: (channel, model) => `${channel.baseUrl}/v1/realtime?model=${encodeURIComponent(model)}`,
	videos: openAIVideos({ base: (channel) => `${channel.baseUrl}/v1/videos`, headers }),
})
