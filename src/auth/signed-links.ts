/**
 * Links that carry their own authorisation: the Midjourney image proxy's URLs (`/mj/image/{id}`,
 * MjForwardUrlEnabled, docs/specification/tasks.md#the-drawing-options). Ferry hands them to the task's owner only (the task relay's fetch
 * answers, the drawing log); the signature keeps anyone else from walking task ids through Ferry.
 */
import type { SecretBox } from '@/lib/crypto'

const IMAGE_PURPOSE = 'mj-image'

/** The path of a task's image through Ferry, signed; `origin` is prepended when given (no trailing slash). */
export function midjourneyImagePath(secrets: SecretBox, mjId: string, origin = ''): string {
	return `${origin}/mj/image/${encodeURIComponent(mjId)}?signature=${secrets.sign(`${IMAGE_PURPOSE}:${mjId}`)}`
}

export function isMidjourneyImageSignature(secrets: SecretBox, mjId: string, signature: string): boolean {
	return secrets.verify(`${IMAGE_PURPOSE}:${mjId}`, signature)
}
