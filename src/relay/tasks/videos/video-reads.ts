/**
 * The reads of OpenAI's Videos API on Ferry's task store, always the caller's own (another user's
 * video is not found): retrieve, list (newest first by default, cursor `after`), delete, and the
 * content of a completed video streamed through from its upstream under the key that made it.
 */
import { and, asc, desc, eq, gt, lt, notLike } from 'drizzle-orm'
import { isFinishedTaskStatus, TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import { equalsText } from '@/db/stored-text'
import { readerStream } from '@/lib/outbound/body-guard'
import { RelayError, relayErrors } from '../../errors'
import { VIDEO_VARIANTS, type VideoState, type VideoVariant } from '../../providers/types'
import { adaptorContext } from '../../upstream/open'
import type { RelayServices } from '../../services'
import { scrubSecrets } from '../../upstream/messages'
import { requestInit, videoChannelOf } from './video-channel'
import { ownVideo, readVideoPropertiesOf, videoView } from './video-rows'

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 100
const READ_TIMEOUT_MS = 30_000
/** A deleted video's properties say so; prompts are JSON-escaped there, so no prompt can read like it. */
const DELETED_MARK = '%"deleted":true%'

export async function retrieveVideo(dependencies: Dependencies, userId: number, id: string) {
	return videoView(await ownVideo(dependencies, userId, id))
}

export interface VideoListQuery {
	limit?: string
	after?: string
	order?: string
}

export async function listVideos({ store }: Dependencies, userId: number, query: VideoListQuery) {
	const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit)
	if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw relayErrors.badRequest(`limit: expected a whole number from 1 to ${MAX_LIMIT}`)
	const order = query.order ?? 'desc'
	if (order !== 'asc' && order !== 'desc') throw relayErrors.badRequest('order: expected asc or desc')
	const { tasks } = store.tables
	const own = and(eq(tasks.userId, userId), eq(tasks.platform, TASK_PLATFORM.video), notLike(tasks.properties, DELETED_MARK))
	let where = own
	if (query.after) {
		const [cursor] = await store.db.select({ id: tasks.id }).from(tasks).where(and(own, equalsText(tasks.taskId, query.after))).limit(1)
		if (!cursor) throw relayErrors.badRequest(`after: no video ${query.after}`)
		where = and(own, order === 'desc' ? lt(tasks.id, cursor.id) : gt(tasks.id, cursor.id))
	}
	const rows = await store.db.select().from(tasks).where(where).orderBy(order === 'desc' ? desc(tasks.id) : asc(tasks.id)).limit(limit + 1)
	const data = rows.slice(0, limit).map(videoView)
	return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit }
}

/** Deletes a finished video: the upstream's copy (as far as it can be reached), then Ferry's; the bill stays. */
export async function deleteVideo(dependencies: Dependencies, relay: RelayServices, userId: number, id: string) {
	const row = await ownVideo(dependencies, userId, id)
	if (!isFinishedTaskStatus(row.status)) throw relayErrors.badRequest(`the video ${id} is still being generated; it can be deleted once it completed or failed`)
	const found = row.status === TASK_STATUS.success ? await videoChannelOf(dependencies, relay, row) : undefined
	if (found?.videos.deleteRequest) {
		const signal = AbortSignal.timeout(READ_TIMEOUT_MS)
		await Promise.resolve(found.videos.deleteRequest(found.channel, found.upstreamId, adaptorContext(dependencies, relay, signal)))
			.then((upstream) => relay.outbound(upstream.url, { method: upstream.method ?? 'DELETE', headers: upstream.headers, signal }))
			.then((response) => response.text())
			.catch((error) => dependencies.logger.warn('deleting a video upstream failed', { channelId: found.channel.id, reason: scrubSecrets(String((error as Error).message ?? error), found.channel) }))
	}
	const { store } = dependencies
	const { tasks } = store.tables
	await store.db.update(tasks).set({ properties: JSON.stringify({ ...readVideoPropertiesOf(row), deleted: true }) }).where(eq(tasks.id, row.id))
	return { id, object: 'video.deleted', deleted: true }
}

export const isVideoVariant = (value: string): value is VideoVariant => (VIDEO_VARIANTS as readonly string[]).includes(value)

const notReady = (id: string, status: string) => new RelayError(409, `the video ${id} is ${status === TASK_STATUS.failure ? 'failed' : 'not completed yet'}: its content is available once it completed`, 'invalid_request_error', 'video_not_ready')

/** A single byte range (`bytes=0-1023`, `bytes=1024-`): what a video player asks for to seek; passed upstream as it is. */
const BYTE_RANGE = /^bytes=\d{0,15}-\d{0,15}$/

/** An asset as the client gets it: the upstream's status (200, or 206 for a range), type, length and bytes. */
export interface VideoAsset {
	status: 200 | 206
	contentType: string
	length: string | null
	/** The part a 206 carries (`bytes 0-1023/4096`). */
	range: string | null
	body: ReadableStream<Uint8Array>
}

/** A completed video's asset, streamed through: the upstream's content type and bytes (a byte range when the client asks one). */
export async function videoContent(dependencies: Dependencies, relay: RelayServices, userId: number, id: string, variant: string, signal: AbortSignal, range?: string | null): Promise<VideoAsset> {
	if (!isVideoVariant(variant)) throw relayErrors.badRequest(`variant: expected ${VIDEO_VARIANTS.join(', ')}`)
	const row = await ownVideo(dependencies, userId, id)
	if (row.status !== TASK_STATUS.success) throw notReady(id, row.status)
	const found = await videoChannelOf(dependencies, relay, row)
	if (!found) throw new RelayError(503, `the channel that made the video ${id} is not available now`, 'server_error', 'channel_unavailable')
	const { channel, videos, upstreamId, upstreamModel } = found
	const context = adaptorContext(dependencies, relay, signal)
	try {
		let state: VideoState = { status: 'completed', progress: 100, failReason: '', hasVideo: true, videoUrl: '' }
		if (videos.contentNeedsState) {
			const poll = await videos.pollRequest(channel, upstreamId, upstreamModel, context)
			const answer = await relay.outbound(poll.url, requestInit(poll, signal))
			const text = await answer.text()
			if (!answer.ok) throw relayErrors.upstreamUnavailable()
			state = { ...videos.readPoll(text), status: 'completed' }
		}
		if (state.inline) {
			if (variant !== 'video') throw new RelayError(400, `the video ${id} has no ${variant}`, 'invalid_request_error', 'variant_unavailable')
			const bytes = Buffer.from(state.inline.data, 'base64')
			return { status: 200, contentType: state.inline.mimeType, length: String(bytes.byteLength), range: null, body: new Blob([bytes]).stream() }
		}
		const upstream = await videos.contentRequest(channel, upstreamId, variant, state, context)
		if (!upstream) throw new RelayError(400, `the video ${id} has no ${variant}`, 'invalid_request_error', 'variant_unavailable')
		const ranged = range && BYTE_RANGE.test(range) ? { ...upstream, headers: { ...upstream.headers, range } } : upstream
		const opened = await relay.outbound(ranged.url, requestInit(ranged, signal))
		if (!opened.ok || !opened.body) {
			await opened.body?.cancel().catch(() => {})
			throw relayErrors.upstreamUnavailable()
		}
		const partial = opened.status === 206 && ranged !== upstream
		return {
			status: partial ? 206 : 200,
			contentType: opened.headers.get('content-type') ?? 'application/octet-stream',
			length: opened.headers.get('content-length'),
			range: partial ? opened.headers.get('content-range') : null,
			body: readerStream(opened.body),
		}
	} catch (error) {
		if (error instanceof RelayError) throw error
		dependencies.logger.warn('fetching a video\'s content failed', { channelId: channel.id, reason: scrubSecrets(String((error as Error).message ?? error), channel) })
		throw relayErrors.upstreamUnavailable()
	}
}
