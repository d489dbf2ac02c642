/**
 * What clients send to `POST /v1/videos` (OpenAI's Videos API): a prompt, a model, a length in
 * seconds and a size. The lengths and sizes a model accepts are known by its family — OpenAI's Sora,
 * Google's Veo, Kling — and anything else is refused with a 400 before anything is held, since the
 * price is per second of the requested length. Upload fields arrive as text (`seconds: "8"`).
 */
import { type VideoFamily, videoFamily } from '@shared/video'
import { relayErrors } from '../../errors'
import { isObject } from '../json'
import type { Upload } from '../media/multipart'

/** OpenAI's default when a request names no model. */
export const DEFAULT_VIDEO_MODEL = 'sora-2'
const PROMPT_MAX_LENGTH = 32_000

/** A model Ferry knows no family of: any whole number of seconds up to this, any size up to 4096 a side. */
const OTHER: VideoFamily = { seconds: [4], sizes: ['720x1280'] }
const OTHER_MAX_SECONDS = 60
const OTHER_MAX_SIDE = 4096

/**
 * Sizes with a side of 1792 pixels or more or a short side of 1080 or more: OpenAI prices sora-2-pro's
 * 1024x1792 at $0.50 a second against $0.30 at 720p, so these cost 5/3 of the model's price.
 */
export const HIGH_RESOLUTION_FACTOR = 5 / 3
const HIGH_RESOLUTION_LONG_SIDE = 1792
const HIGH_RESOLUTION_SHORT_SIDE = 1080

function fail(message: string, param: string): never {
	throw relayErrors.badRequest(`${param}: ${message}`)
}

const SIZE = /^(\d{2,5})x(\d{2,5})$/

function sidesOf(size: string) {
	const match = SIZE.exec(size)
	return match ? [Number(match[1]), Number(match[2])] as const : undefined
}

/** `seconds` as a number: a JSON number or string, or an upload's text field; the family's default when absent. */
export function videoSeconds(body: Record<string, unknown>): number {
	const value = body.seconds
	if (value === undefined || value === null || value === '') return (videoFamily(String(body.model)) ?? OTHER).seconds[0]!
	return typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : typeof value === 'number' ? value : Number.NaN
}

export function videoSize(body: Record<string, unknown>): string {
	const value = body.size
	return typeof value === 'string' && value !== '' ? value : (videoFamily(String(body.model)) ?? OTHER).sizes[0]!
}

/** What a video costs in units of the model's per-second price: its seconds, times the size factor. */
export function videoCallRatio(body: Record<string, unknown>): number {
	const [width, height] = sidesOf(videoSize(body)) ?? [0, 0]
	const high = Math.max(width, height) >= HIGH_RESOLUTION_LONG_SIDE || Math.min(width, height) >= HIGH_RESOLUTION_SHORT_SIDE
	return videoSeconds(body) * (high ? HIGH_RESOLUTION_FACTOR : 1)
}

/** `body` with OpenAI's default model when it names none. */
export function withDefaultVideoModel(body: unknown): unknown {
	if (!isObject(body) || (body.model !== undefined && body.model !== null && body.model !== '')) return body
	return { ...body, model: DEFAULT_VIDEO_MODEL }
}

/** Checks a video request (its JSON, or an upload's text fields); throws a 400 naming the field. */
export function checkVideoRequest(body: Record<string, unknown> & { model: string }, upload?: Upload) {
	const prompt = body.prompt
	if (typeof prompt !== 'string' || prompt.trim() === '') fail('prompt is required', 'prompt')
	if (prompt.length > PROMPT_MAX_LENGTH) fail(`at most ${PROMPT_MAX_LENGTH} characters`, 'prompt')
	const family = videoFamily(body.model)
	const seconds = videoSeconds(body)
	if (family) {
		if (!family.seconds.includes(seconds)) fail(`${body.model} takes ${[...family.seconds].sort((a, b) => a - b).join(', ')} seconds`, 'seconds')
	} else if (!(Number.isInteger(seconds) && seconds > 0 && seconds <= OTHER_MAX_SECONDS)) {
		fail(`expected a whole number of seconds from 1 to ${OTHER_MAX_SECONDS}`, 'seconds')
	}
	const size = videoSize(body)
	const sides = sidesOf(size)
	if (family) {
		if (!family.sizes.includes(size)) fail(`${body.model} takes the sizes ${family.sizes.join(', ')}`, 'size')
	} else if (!sides || sides.some((side) => side <= 0 || side > OTHER_MAX_SIDE)) {
		fail('expected width x height, such as 1280x720', 'size')
	}
	const reference = body.input_reference
	if (upload && upload.files.size > 0 && !upload.files.has('input_reference')) fail('the only file a video request takes is input_reference', 'input_reference')
	if (reference !== undefined && reference !== null && !upload && !isObject(reference)) fail('expected {image_url} or {file_id}', 'input_reference')
}
