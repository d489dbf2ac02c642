import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer } from '../openai-compatible'
import type { ProviderAdaptor } from '../types'
import { libraryErrorOf, libraryStreamToOpenAI, libraryToOpenAI } from './answer'
import { libraryBody } from './request'

/**
 * AI Proxy's knowledge-base question answering: a chat becomes one question to the library named
 * by the channel's knowledge base ID (`other`).
 */
export const aiProxyLibrary: ProviderAdaptor = {
	type: CHANNEL_TYPE.aiProxyLibrary,
	name: 'AI Proxy Library',
	defaultBaseUrl: 'https://api.aiproxy.io',
	defaultModels: ['gpt-4o-mini'],
	converted: {
		chat: {
			buildRequest(channel, body) {
				return {
					url: `${channel.baseUrl}/api/library/ask`,
					headers: { 'content-type': 'application/json', ...bearer(channel) },
					body: JSON.stringify(libraryBody(body, channel.other)),
				}
			},
			toOpenAI: libraryToOpenAI,
			streamToOpenAI: libraryStreamToOpenAI,
			errorOf: libraryErrorOf,
		},
	},
}
