/**
 * Veo on the Gemini API as a video adaptor: `POST /v1beta/models/{model}:predictLongRunning` with
 * `instances` (the prompt, the reference image inline) and `parameters` (aspect ratio, resolution,
 * seconds) answers an operation name; `GET /v1beta/{name}` polls it until `done`, with the video's
 * file URI in `response.generateVideoResponse.generatedSamples` or an `error`; the file downloads
 * with the channel's key. Vertex AI speaks the same requests under its own URLs (vertex/videos.ts);
 * the state of an operation of either is read here.
 */
import type { UpstreamChannel, VideoAdaptor, VideoState, VideoSubmit } from '../types'
import { isObject } from '../../formats/json'
import { videoSeconds, videoSize } from '../../formats/videos/requests'

const DEFAULT_API_VERSION = 'v1beta'
const FULL_HD_SHORT_SIDE = 1080

/** OpenAI's size → Veo's aspect ratio and resolution. */
function veoShape(size: string) {
	const [width, height] = size.split('x').map(Number) as [number, number]
	return { aspectRatio: width >= height ? '16:9' : '9:16', resolution: Math.min(width, height) >= FULL_HD_SHORT_SIDE ? '1080p' : '720p' }
}

/** The predictLongRunning body both Google APIs take. */
export function veoRequestBody({ body, reference }: VideoSubmit) {
	return {
		instances: [{
			prompt: body.prompt,
			...(reference ? { image: { bytesBase64Encoded: reference.data, mimeType: reference.mimeType } } : {}),
		}],
		parameters: { ...veoShape(videoSize(body)), durationSeconds: videoSeconds(body), sampleCount: 1 },
	}
}

const failed = (failReason: string): VideoState => ({ status: 'failed', progress: 0, failReason, hasVideo: false, videoUrl: '' })

/** A long-running operation (either API's) → the video's state; throws a SyntaxError for anything else. */
export function veoState(value: unknown): VideoState {
	if (!isObject(value) || typeof value.name !== 'string') throw new SyntaxError('not an operation')
	if (isObject(value.error)) return failed(typeof value.error.message === 'string' && value.error.message ? value.error.message : 'the upstream reported the video failed')
	if (value.done !== true) return { status: 'in_progress', progress: 0, failReason: '', hasVideo: false, videoUrl: '' }
	const response = isObject(value.response) ? value.response : {}
	// The Gemini API's samples, or Vertex AI's videos (a storage URI or the bytes).
	const generated = isObject(response.generateVideoResponse) ? response.generateVideoResponse : response
	const samples = Array.isArray(generated.generatedSamples) ? generated.generatedSamples : []
	const sample = samples.find((entry) => isObject(entry) && isObject(entry.video) && typeof entry.video.uri === 'string')
	if (isObject(sample) && isObject(sample.video)) return { status: 'completed', progress: 100, failReason: '', hasVideo: true, videoUrl: String(sample.video.uri) }
	const videos = Array.isArray(generated.videos) ? generated.videos.filter(isObject) : []
	const stored = videos.find((video) => typeof video.gcsUri === 'string')
	if (stored) return { status: 'completed', progress: 100, failReason: '', hasVideo: true, videoUrl: String(stored.gcsUri) }
	const inline = videos.find((video) => typeof video.bytesBase64Encoded === 'string')
	if (inline) {
		return { status: 'completed', progress: 100, failReason: '', hasVideo: true, videoUrl: '', inline: { data: String(inline.bytesBase64Encoded), mimeType: typeof inline.mimeType === 'string' ? inline.mimeType : 'video/mp4' } }
	}
	// Done without a video: filtered by its safety checks, say why when it says.
	const reasons = Array.isArray(generated.raiMediaFilteredReasons) ? generated.raiMediaFilteredReasons.filter((reason) => typeof reason === 'string') : []
	return { status: 'completed', progress: 100, failReason: reasons.join('; '), hasVideo: false, videoUrl: '' }
}

export function readOperationName(text: string): { id: string; state: VideoState } {
	const value = JSON.parse(text) as unknown
	if (!isObject(value) || typeof value.name !== 'string' || value.name === '') throw new SyntaxError('not an operation')
	return { id: value.name, state: { status: 'queued', progress: 0, failReason: '', hasVideo: false, videoUrl: '' } }
}

const apiBase = (channel: UpstreamChannel) => `${channel.baseUrl}/${channel.other || DEFAULT_API_VERSION}`
const keyHeader = (channel: UpstreamChannel) => ({ 'x-goog-api-key': channel.key })

/** The key goes only to the channel's own host: a file URI elsewhere is fetched without it. */
function sameOrigin(url: string, base: string) {
	try {
		return new URL(url).origin === new URL(base).origin
	} catch {
		return false
	}
}

export const geminiVideos: VideoAdaptor = {
	inlineReference: true,
	contentNeedsState: true,
	submitRequest: (channel, submit) => ({
		url: `${apiBase(channel)}/models/${encodeURIComponent(String(submit.body.model))}:predictLongRunning`,
		headers: { 'content-type': 'application/json', ...keyHeader(channel) },
		body: JSON.stringify(veoRequestBody(submit)),
	}),
	readSubmit: (text) => readOperationName(text),
	// The operation's name is its path (`models/veo-…/operations/…`).
	pollRequest: (channel, id) => ({ method: 'GET', url: `${apiBase(channel)}/${id.split('/').map(encodeURIComponent).join('/')}`, headers: keyHeader(channel), body: '' }),
	readPoll: (text) => veoState(JSON.parse(text)),
	contentRequest(channel, _id, variant, state) {
		if (variant !== 'video' || !state.videoUrl) return undefined
		return { method: 'GET', url: state.videoUrl, headers: sameOrigin(state.videoUrl, channel.baseUrl) ? keyHeader(channel) : {}, body: '' }
	},
}
