/**
 * Kling's own video API as a client format (Kling's clients calling Ferry's `/kling/v1/videos/…`):
 * a text2video or image2video request → the canonical `/v1/videos` request, and an OpenAI video
 * object (Ferry's, with Ferry's id) → Kling's task envelope. Pure, like every format.
 */
import { isObject } from '../json'

export const KLING_KINDS = ['text2video', 'image2video'] as const
export type KlingKind = (typeof KLING_KINDS)[number]

const SIZES: Record<string, string> = { '16:9': '1280x720', '9:16': '720x1280', '1:1': '1024x1024' }
const DEFAULT_MODEL = 'kling-v1'
const DEFAULT_DURATION = '5'
const HTTP = /^https?:\/\//i

/** Kling's request → OpenAI's form: `model_name` → model, `duration` → seconds, `aspect_ratio` → size, `image` → input_reference. */
export function klingToOpenAI(body: unknown, kind: KlingKind): unknown {
	if (!isObject(body)) return body
	const image = typeof body.image === 'string' && body.image !== '' ? body.image : undefined
	const aspect = typeof body.aspect_ratio === 'string' ? body.aspect_ratio : '16:9'
	return {
		model: typeof body.model_name === 'string' && body.model_name ? body.model_name : DEFAULT_MODEL,
		prompt: body.prompt,
		seconds: typeof body.duration === 'string' || typeof body.duration === 'number' ? String(body.duration) : DEFAULT_DURATION,
		size: SIZES[aspect] ?? aspect,
		// Kling takes an image as a URL or as base64 without a data-URL prefix.
		...(kind === 'image2video' && image ? { input_reference: { image_url: HTTP.test(image) ? image : `data:image/png;base64,${image}` } } : {}),
	}
}

const STATUSES: Record<string, string> = { queued: 'submitted', in_progress: 'processing', completed: 'succeed', failed: 'failed' }
const MILLISECONDS_PER_SECOND = 1000

interface VideoObject {
	id: string
	status: string
	seconds: string
	created_at: number
	completed_at: number | null
	error: { message: string } | null
}

/** An OpenAI video object → Kling's task data; `contentUrl` is where the finished video downloads (through Ferry). */
export function klingTaskData(video: VideoObject, contentUrl: string) {
	return {
		task_id: video.id,
		task_status: STATUSES[video.status] ?? 'submitted',
		task_status_msg: video.error?.message ?? '',
		...(video.status === 'completed' ? { task_result: { videos: [{ id: video.id, url: contentUrl, duration: video.seconds }] } } : {}),
		created_at: video.created_at * MILLISECONDS_PER_SECOND,
		updated_at: (video.completed_at ?? video.created_at) * MILLISECONDS_PER_SECOND,
	}
}

/** Kling's envelope: code 0 for success. */
export const klingAnswer = (data: unknown, requestId = '') => ({ code: 0, message: 'SUCCEED', request_id: requestId, data })

/** Kling's error codes by the HTTP status Ferry answers with (Kling's own: 1000s auth, 1100s account, 1200s request, 1300s policy, 5000 server). */
export function klingErrorCode(status: number): number {
	if (status === 401) return 1000
	if (status === 403) return 1102
	if (status === 404) return 1203
	if (status === 429) return 1302
	if (status >= 500) return 5000
	return 1201
}
