/**
 * Links that carry their own authorisation: the Midjourney image proxy's URLs (`/mj/image/{id}`,
 * MjForwardUrlEnabled, docs/specification/tasks.md#the-drawing-options), and a video's content for the task log's player. Ferry hands them to the task's owner only (the task relay's fetch
 * answers, the drawing log); the signature keeps anyone else from walking task ids through Ferry.
 */
import type { SecretBox } from '@/lib/crypto'

const IMAGE_PURPOSE = 'mj-image'
const VIDEO_PURPOSE = 'video-content'

/** The path of a task's image through Ferry, signed; `origin` is prepended when given (no trailing slash). */
export function midjourneyImagePath(secrets: SecretBox, mjId: string, origin = ''): string {
	return `${origin}/mj/image/${encodeURIComponent(mjId)}?signature=${secrets.sign(`${IMAGE_PURPOSE}:${mjId}`)}`
}

/**
 * A drawing's image as Ferry shows it to the task's owner (the `/mj` fetch answers, the drawing
 * log): with MjForwardUrlEnabled the signed proxy link at `origin`, never the upstream's address.
 */
export function shownDrawingImage(secrets: SecretBox, forward: boolean, drawing: { mjId: string; imageUrl: string }, origin: string): string {
	return drawing.imageUrl && forward ? midjourneyImagePath(secrets, drawing.mjId, origin) : drawing.imageUrl
}

export function isMidjourneyImageSignature(secrets: SecretBox, mjId: string, signature: string): boolean {
	return secrets.verify(`${IMAGE_PURPOSE}:${mjId}`, signature)
}

/**
 * A video's content through Ferry (`/v1/videos/{id}/content`), signed for the task log's preview
 * player: a `<video>` element sends no API key. Handed to the video's owner (and admins) only.
 */
export function videoContentPath(secrets: SecretBox, videoId: string, variant = 'video'): string {
	return `/v1/videos/${encodeURIComponent(videoId)}/content?variant=${variant}&signature=${secrets.sign(`${VIDEO_PURPOSE}:${videoId}`)}`
}

export function isVideoContentSignature(secrets: SecretBox, videoId: string, signature: string): boolean {
	return secrets.verify(`${VIDEO_PURPOSE}:${videoId}`, signature)
}
