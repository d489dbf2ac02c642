import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer } from '../openai-compatible'
import type { ProviderAdaptor } from '../types'
import { difyStreamToOpenAI, difyToOpenAI } from './answer'
import { difyBody } from './request'

/** A Dify app behind its API key; chat goes to the app's `chat-messages` endpoint. */
export const dify: ProviderAdaptor = {
	type: CHANNEL_TYPE.dify,
	name: 'Dify',
	defaultBaseUrl: 'https://api.dify.ai',
	// Dify ignores the name: the app's configuration chooses the model.
	defaultModels: ['dify'],
	converted: {
		chat: {
			buildRequest(channel, body) {
				return {
					url: `${channel.baseUrl}/v1/chat-messages`,
					headers: { 'content-type': 'application/json', ...bearer(channel) },
					body: JSON.stringify(difyBody(body)),
				}
			},
			toOpenAI: difyToOpenAI,
			streamToOpenAI: difyStreamToOpenAI,
		},
	},
}
