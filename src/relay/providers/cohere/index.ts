import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer } from '../openai-compatible'
import type { ProviderAdaptor } from '../types'
import { cohereStreamToOpenAI, cohereToOpenAI } from './answer'
import { cohereChatBody } from './request'

export const cohere: ProviderAdaptor = {
	type: CHANNEL_TYPE.cohere,
	name: 'Cohere',
	defaultBaseUrl: 'https://api.cohere.com',
	converted: {
		chat: {
			buildRequest(channel, body) {
				return {
					url: `${channel.baseUrl}/v2/chat`,
					headers: { 'content-type': 'application/json', ...bearer(channel) },
					body: JSON.stringify(cohereChatBody(body)),
				}
			},
			toOpenAI: cohereToOpenAI,
			streamToOpenAI: cohereStreamToOpenAI,
		},
	},
}
