import { bearer } from '../openai-compatible'
import { identityOf, type ProviderAdaptor } from '../types'
import { aiProxyLibraryType } from './capabilities'
import { libraryErrorOf, libraryStreamToOpenAI, libraryToOpenAI } from './answer'
import { libraryBody } from './request'

/**
 * AI Proxy's knowledge-base question answering: a chat becomes one question to the library named
 * by the channel's knowledge base ID (`other`).
 */
export const aiProxyLibrary: ProviderAdaptor = {
	...identityOf(aiProxyLibraryType),
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
