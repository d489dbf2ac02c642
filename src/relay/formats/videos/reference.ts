/**
 * A video request's reference image as bytes, for upstreams that take it inline (Veo, Kling): the
 * upload's `input_reference` file, or the JSON form's `input_reference.image_url` — a data URL, or
 * an address downloaded through the relay's guarded media client.
 */
import { relayErrors } from '../../errors'
import type { AdaptorContext, VideoReference } from '../../providers/types'
import type { CanonicalRequest } from '../canonical'
import { isObject } from '../json'

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)$/

/** Whether the request names a reference image at all (Kling polls image-to-video tasks under their own path). */
export function hasVideoReference(request: Pick<CanonicalRequest, 'body' | 'upload'>): boolean {
	if (request.upload?.files.has('input_reference')) return true
	const body = request.body as Record<string, unknown>
	return isObject(body.input_reference) && typeof body.input_reference.image_url === 'string'
}

export async function videoReference(request: Pick<CanonicalRequest, 'body' | 'upload'>, context: AdaptorContext): Promise<VideoReference | undefined> {
	const file = request.upload?.form.get('input_reference')
	if (file && typeof file !== 'string') {
		return { data: Buffer.from(await file.arrayBuffer()).toString('base64'), mimeType: file.type || 'image/png' }
	}
	const body = request.body as Record<string, unknown>
	const url = isObject(body.input_reference) ? body.input_reference.image_url : undefined
	if (typeof url !== 'string' || url === '') return undefined
	const inline = DATA_URL.exec(url)
	if (inline) return { mimeType: inline[1]!, data: inline[2]!.replace(/\s/g, '') }
	if (!context.fetchMedia) throw relayErrors.badRequest('input_reference: give the image as a data URL or an upload')
	const fetched = await context.fetchMedia(url)
	return { data: fetched.data, mimeType: fetched.mediaType }
}
