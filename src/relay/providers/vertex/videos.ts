/**
 * Veo on Vertex AI as a video adaptor: `predictLongRunning` of the model under the channel's
 * project and region answers an operation name, `fetchPredictOperation` polls it (both with the
 * service account's OAuth token); a finished operation carries the video inline (its bytes) or
 * in a Cloud Storage bucket, downloaded with the same token.
 */
import type { AdaptorContext, UpstreamChannel, VideoAdaptor } from '../types'
import { geminiModelName } from '../gemini'
import { readOperationName, veoRequestBody, veoState } from '../gemini/videos'
import { accessToken } from './access-token'
import { vertexHost, vertexRegion } from './region'
import { parseServiceAccount } from './service-account'

const GCS_URI = /^gs:\/\/([^/]+)\/(.+)$/
const STORAGE_HOST = 'https://storage.googleapis.com'

async function modelCall(channel: UpstreamChannel, model: string, method: string, body: unknown, context: AdaptorContext) {
	const account = parseServiceAccount(channel.key)
	const name = geminiModelName(model)
	const region = vertexRegion(channel.other, name)
	const host = channel.baseUrl || vertexHost(region)
	const url = `${host}/v1/projects/${encodeURIComponent(account.projectId)}/locations/${encodeURIComponent(region)}/publishers/google/models/${encodeURIComponent(name)}:${method}`
	const token = await accessToken(account, context)
	return { url, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }
}

export const vertexVideos: VideoAdaptor = {
	inlineReference: true,
	contentNeedsState: true,
	submitRequest: (channel, submit, context) => modelCall(channel, String(submit.body.model), 'predictLongRunning', veoRequestBody(submit), context),
	readSubmit: (text) => readOperationName(text),
	pollRequest: (channel, id, model, context) => modelCall(channel, model, 'fetchPredictOperation', { operationName: id }, context),
	readPoll: (text) => veoState(JSON.parse(text)),
	async contentRequest(channel, _id, variant, state, context) {
		const stored = GCS_URI.exec(state.videoUrl)
		if (variant !== 'video' || !stored) return undefined
		const token = await accessToken(parseServiceAccount(channel.key), context)
		return { method: 'GET', url: `${STORAGE_HOST}/storage/v1/b/${encodeURIComponent(stored[1]!)}/o/${encodeURIComponent(stored[2]!)}?alt=media`, headers: { authorization: `Bearer ${token}` }, body: '' }
	},
}
