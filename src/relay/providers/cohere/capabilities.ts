import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const cohereType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.cohere,
	name: 'Cohere',
	defaultBaseUrl: 'https://api.cohere.com',
	defaultModels: ['command-a-03-2025', 'command-r-plus-08-2024', 'command-r-08-2024', 'embed-v4.0', 'rerank-v3.5'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false }, rerank: { stream: false } },
		listsModels: true,
	}),
}
