import { bearer } from '../openai-compatible'
import { identityOf, type ProviderAdaptor } from '../types'
import { difyType } from './capabilities'
import { difyStreamToOpenAI, difyToOpenAI } from './answer'
import { difyBody } from './request'

/** A Dify app behind its API key; chat goes to the app's `chat-messages` endpoint. */
export const dify: ProviderAdaptor = {
	...identityOf(difyType),
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
