/**
 * Media a client referenced by URL, downloaded for upstreams that take only inline bytes (Claude on
 * Bedrock): through the proxy worker or the outbound guard (`src/lib/outbound/user-content.ts`).
 * Anything that stops the download is the client's to fix (another URL, or the bytes inline): a 400.
 */
import type { Dependencies } from '@/dependencies'
import { createUserContentFetch, OutboundError } from '@/lib/outbound'
import { RelayError } from '../errors'
import type { FetchedMedia } from '../providers/types'

const MEBIBYTE = 1024 * 1024
/** Bedrock takes images up to 5 MB (base64) and documents a little larger; more is never useful. */
const MEDIA_MAX_BYTES = 10 * MEBIBYTE
/** Milliseconds: an image server gets less time than a language model. */
const MEDIA_TIMEOUTS = { connect: 10_000, firstByte: 30_000, idle: 30_000 }

const mediaError = (reason: string) =>
	new RelayError(400, `a media URL in the request could not be downloaded: ${reason}`, 'invalid_request_error', 'invalid_media_url')

export function mediaFetcher(dependencies: Pick<Dependencies, 'fetch' | 'options'>, signal: AbortSignal): (url: string) => Promise<FetchedMedia> {
	const fetchUserContent = createUserContentFetch(dependencies.fetch, {
		workerUrl: () => dependencies.options.get('WorkerUrl'),
		workerKey: () => dependencies.options.get('WorkerValidKey'),
	})
	return async (url) => {
		let bytes: ArrayBuffer
		let mediaType: string
		try {
			const response = await fetchUserContent(url, { maxBytes: MEDIA_MAX_BYTES, timeouts: MEDIA_TIMEOUTS, signal })
			if (!response.ok) {
				response.body?.cancel().catch(() => {})
				throw mediaError(`the server answered ${response.status}`)
			}
			mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() || 'application/octet-stream'
			bytes = await response.arrayBuffer()
		} catch (error) {
			if (error instanceof RelayError || signal.aborted) throw error
			// Outbound errors name the URL's scheme, host and port only: the client's own URL, safe to repeat.
			throw mediaError(error instanceof OutboundError ? error.message : 'the download failed')
		}
		return { mediaType, data: Buffer.from(bytes).toString('base64') }
	}
}
