/**
 * Kling's text-to-video and image-to-video task API as a video adaptor (NOTES.md): `POST
 * /v1/videos/text2video` (or `image2video`, the reference image inline in base64) answers
 * `{code: 0, data: {task_id, task_status}}`; `GET /v1/videos/{kind}/{task_id}` polls it until
 * `succeed` (the video's URL in `task_result.videos`) or `failed`. Ferry keeps the kind in the
 * task's upstream id (`text2video/<task_id>`), since each is polled under its own path.
 */
import type { UpstreamChannel, VideoAdaptor, VideoState } from '../types'
import { isObject } from '../../formats/json'
import { videoSeconds, videoSize } from '../../formats/videos/requests'
import { klingToken } from './jwt'

const KINDS = { text: 'text2video', image: 'image2video' } as const
const ASPECT_RATIOS: Record<string, string> = { '1280x720': '16:9', '720x1280': '9:16', '1024x1024': '1:1' }
const DEFAULT_MODE = 'std'
const PROGRESS_WHILE_PROCESSING = 50

async function signed(channel: UpstreamChannel, now: number) {
	return { authorization: `Bearer ${await klingToken(channel.key, now)}` }
}

/** Kling's answer envelope: `code` 0 is success, anything else a refusal in its `message`. */
function dataOf(text: string): { data: Record<string, unknown> } | { refused: string } {
	const value = JSON.parse(text) as unknown
	if (!isObject(value) || !('code' in value)) throw new SyntaxError('not a Kling answer')
	if (value.code !== 0) return { refused: typeof value.message === 'string' && value.message ? value.message : `Kling refused the task (code ${String(value.code)})` }
	if (!isObject(value.data)) throw new SyntaxError('a Kling answer without data')
	return { data: value.data }
}

const failed = (failReason: string): VideoState => ({ status: 'failed', progress: 0, failReason, hasVideo: false, videoUrl: '' })

function stateOf(data: Record<string, unknown>): VideoState {
	const status = data.task_status
	const message = typeof data.task_status_msg === 'string' ? data.task_status_msg : ''
	if (status === 'failed') return failed(message || 'Kling reported the task failed')
	if (status === 'succeed') {
		const result = isObject(data.task_result) ? data.task_result : {}
		const video = (Array.isArray(result.videos) ? result.videos : []).find((entry) => isObject(entry) && typeof entry.url === 'string' && entry.url !== '')
		const videoUrl = isObject(video) ? String(video.url) : ''
		return { status: 'completed', progress: 100, failReason: '', hasVideo: videoUrl !== '', videoUrl }
	}
	if (status === 'processing') return { status: 'in_progress', progress: PROGRESS_WHILE_PROCESSING, failReason: '', hasVideo: false, videoUrl: '' }
	return { status: 'queued', progress: 0, failReason: '', hasVideo: false, videoUrl: '' }
}

export const klingVideos: VideoAdaptor = {
	inlineReference: true,
	contentNeedsState: true,
	async submitRequest(channel, { body, reference }, context) {
		const common = { model_name: body.model, prompt: body.prompt, mode: DEFAULT_MODE, duration: String(videoSeconds(body)) }
		const request = reference
			? { kind: KINDS.image, body: { ...common, image: reference.data } }
			: { kind: KINDS.text, body: { ...common, aspect_ratio: ASPECT_RATIOS[videoSize(body)] ?? '16:9' } }
		return {
			url: `${channel.baseUrl}/v1/videos/${request.kind}`,
			headers: { 'content-type': 'application/json', ...(await signed(channel, context.now())) },
			body: JSON.stringify(request.body),
		}
	},
	readSubmit(text, { withImage }) {
		const answer = dataOf(text)
		if ('refused' in answer) return { id: `${withImage ? KINDS.image : KINDS.text}/`, state: failed(answer.refused) }
		const taskId = answer.data.task_id
		if (typeof taskId !== 'string' || taskId === '') throw new SyntaxError('a Kling answer without a task id')
		return { id: `${withImage ? KINDS.image : KINDS.text}/${taskId}`, state: stateOf(answer.data) }
	},
	async pollRequest(channel, id, _model, context) {
		const [kind, taskId] = id.split('/') as [string, string]
		return { method: 'GET', url: `${channel.baseUrl}/v1/videos/${kind}/${encodeURIComponent(taskId)}`, headers: await signed(channel, context.now()), body: '' }
	},
	readPoll(text) {
		const answer = dataOf(text)
		return 'refused' in answer ? failed(answer.refused) : stateOf(answer.data)
	},
	// The video's URL is Kling's CDN: no credentials go with it.
	contentRequest: (_channel, _id, variant, state) => variant === 'video' && state.videoUrl ? { method: 'GET', url: state.videoUrl, headers: {}, body: '' } : undefined,
}
