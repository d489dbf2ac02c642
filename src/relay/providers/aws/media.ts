/**
 * Bedrock takes image and document sources as base64 only (no `url` source, unlike Anthropic's
 * own API): a Claude body's URL sources are downloaded (through the proxy worker or the outbound
 * guard, `AdaptorContext.fetchMedia`) and sent inline. Each distinct URL is fetched once.
 */
import { RelayError } from '../../errors'
import type { AdaptorContext, FetchedMedia } from '../types'

type Json = Record<string, unknown>

/** What Bedrock's Claude accepts inline. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])
const DOCUMENT_TYPES = new Set(['application/pdf'])
/** Downloads at a time for one request. */
const PARALLEL_DOWNLOADS = 4

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every block with a `url` source, wherever Claude allows one: message content and tool results, and system blocks. */
function urlBlocks(body: Json): Json[] {
	const found: Json[] = []
	const visit = (blocks: unknown) => {
		if (!Array.isArray(blocks)) return
		for (const block of blocks) {
			if (!isObject(block)) continue
			if ((block.type === 'image' || block.type === 'document') && isObject(block.source) && block.source.type === 'url' && typeof block.source.url === 'string') found.push(block)
			if (block.type === 'tool_result') visit(block.content)
		}
	}
	visit(body.system)
	if (Array.isArray(body.messages)) for (const message of body.messages) if (isObject(message)) visit(message.content)
	return found
}

function unsupported(block: Json, media: FetchedMedia) {
	const allowed = block.type === 'image' ? IMAGE_TYPES : DOCUMENT_TYPES
	if (allowed.has(media.mediaType)) return undefined
	return new RelayError(400, `a media URL in the request points to ${media.mediaType}, which this model cannot read as ${block.type === 'image' ? 'an image' : 'a document'}`, 'invalid_request_error', 'invalid_media_url')
}

/** The body with every URL source replaced by the downloaded bytes; the same body when it has none. */
export async function withInlineMedia(body: Json, context: AdaptorContext): Promise<Json> {
	const blocks = urlBlocks(body)
	if (blocks.length === 0) return body
	const { fetchMedia } = context
	if (!fetchMedia) throw new RelayError(400, 'media URLs cannot be sent to this channel; send the bytes inline (base64)', 'invalid_request_error', 'invalid_media_url')
	const urls = [...new Set(blocks.map((block) => (block.source as { url: string }).url))]
	const downloaded = new Map<string, FetchedMedia>()
	for (let start = 0; start < urls.length; start += PARALLEL_DOWNLOADS) {
		const batch = urls.slice(start, start + PARALLEL_DOWNLOADS)
		const media = await Promise.all(batch.map((url) => fetchMedia(url)))
		batch.forEach((url, index) => downloaded.set(url, media[index]!))
	}
	// The body is this call's alone (claudeRequestBody's, or a Claude client's parsed request): its blocks
	// may be changed in place. A retry on another channel then sends the downloaded bytes, not the URL.
	for (const block of blocks) {
		const media = downloaded.get((block.source as { url: string }).url)!
		const refusal = unsupported(block, media)
		if (refusal) throw refusal
		block.source = { type: 'base64', media_type: media.mediaType, data: media.data }
	}
	return body
}
