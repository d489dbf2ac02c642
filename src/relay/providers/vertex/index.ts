/**
 * Vertex AI (type 41): Google's Gemini models in the Gemini wire format, under a project and region,
 * with an OAuth token obtained from the channel's service-account key. OpenAI-format calls convert;
 * Gemini-format chat calls pass through with the client's own body.
 */
import { identityOf, type AdaptorContext, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { vertexType } from './capabilities'
import { geminiChatConverter, geminiModelName } from '../gemini'
import { geminiRequestFromOpenAI } from '../gemini/chat-request'
import { accessToken } from './access-token'
import { vertexHost, vertexRegion } from './region'
import { parseServiceAccount } from './service-account'
import { vertexVideos } from './videos'

export const vertex: ProviderAdaptor = {
	...identityOf(vertexType),
	converted: {
		chat: geminiChatConverter((channel, body, context, extras) => vertexRequest(channel, { model: String(body.model), stream: body.stream === true }, JSON.stringify(geminiRequestFromOpenAI(body, extras)), context)),
	},
	// A Gemini client's own body goes as it came (Vertex takes the Gemini API's request body).
	sameFormat: {
		gemini: { buildRequest: (channel, call, context) => vertexRequest(channel, call, call.body, context) },
	},
	// Veo (`/v1/videos` from OpenAI clients).
	videos: vertexVideos,
}

/** `generateContent` (or `streamGenerateContent` as SSE) of the model under the channel's project and region, with an OAuth token. */
async function vertexRequest(channel: UpstreamChannel, call: { model: string; stream: boolean }, body: string, context: AdaptorContext) {
	const account = parseServiceAccount(channel.key)
	const model = geminiModelName(call.model)
	const region = vertexRegion(channel.other, model)
	const host = channel.baseUrl || vertexHost(region)
	const path = `/v1/projects/${encodeURIComponent(account.projectId)}/locations/${encodeURIComponent(region)}/publishers/google/models/${encodeURIComponent(model)}`
	const url = call.stream ? `${host}${path}:streamGenerateContent?alt=sse` : `${host}${path}:generateContent`
	const token = await accessToken(account, context)
	return { url, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body }
}
