/**
 * Vertex AI (type 41): Google's Gemini models in the Gemini wire format, under a project and region,
 * with an OAuth token obtained from the channel's service-account key.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'
import { geminiChatConverter, geminiModelName } from '../gemini'
import { geminiRequestFromOpenAI } from '../gemini/chat-request'
import { accessToken } from './access-token'
import { vertexHost, vertexRegion } from './region'
import { parseServiceAccount } from './service-account'

export const vertex: ProviderAdaptor = {
	type: CHANNEL_TYPE.vertex,
	name: 'Vertex AI',
	// The host follows the region; a base URL set on the channel (a proxy) replaces it.
	defaultBaseUrl: '',
	defaultModels: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'],
	converted: {
		chat: geminiChatConverter(async (channel, body, context) => {
			const account = parseServiceAccount(channel.key)
			const model = geminiModelName(body.model)
			const region = vertexRegion(channel.other, model)
			const host = channel.baseUrl || vertexHost(region)
			const path = `/v1/projects/${encodeURIComponent(account.projectId)}/locations/${encodeURIComponent(region)}/publishers/google/models/${encodeURIComponent(model)}`
			const url = body.stream === true ? `${host}${path}:streamGenerateContent?alt=sse` : `${host}${path}:generateContent`
			const token = await accessToken(account, context)
			return {
				url,
				headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
				body: JSON.stringify(geminiRequestFromOpenAI(body)),
			}
		}),
	},
}
