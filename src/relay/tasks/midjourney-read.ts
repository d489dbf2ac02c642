/**
 * Reading drawing tasks (midjourney-proxy's calls, answered from Ferry's own task store and scoped
 * to the caller): `GET /mj/task/{id}/fetch`, `POST /mj/task/list-by-condition`, the image seed
 * (asked of the task's channel), and `GET /mj/image/{id}`, the image proxy behind the URLs that
 * MjForwardUrlEnabled hands out instead of the upstream's.
 */
import { desc, eq } from 'drizzle-orm'
import type { Dependencies } from '@/dependencies'
import type { OutboundPolicy } from '@/lib/outbound'
import { isMidjourneyImageSignature, shownDrawingImage } from '@/auth/signed-links'
import { parseJsonObject } from '@/db/stores/channels'
import { drawingOf, drawingPayloadOf, isDrawing } from '@/db/stores/drawings'
import { inTexts } from '@/db/stored-text'
import { relayErrors } from '../errors'
import { isObject } from '../formats/json'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import { loadAdaptor } from '../providers/registry'
import { scrubSecrets } from '../upstream/messages'
import { ownDrawing } from './midjourney-submit'
import { taskErrors } from './task-errors'
import { type DrawingRow, readBilling } from './task-rows'
import { withTaskKey } from './task-channels'

const MILLISECONDS_PER_SECOND = 1000
/** list-by-condition reads at most this many ids. */
const MAX_LISTED_IDS = 100
const SEED_TIMEOUT_MS = 30_000
const MEBIBYTE = 1024 * 1024
const IMAGE_MAX_BYTES = 32 * MEBIBYTE
const IMAGE_TIMEOUTS = { connect: 10_000, firstByte: 30_000, idle: 30_000 }
const IMAGE_CACHE_SECONDS = 300
/** The drawings of one id read for its image (an upstream may reuse an id); the newest with an image answers. */
const IMAGE_ROWS_READ = 10

function parsedList(text: string): unknown[] {
	try {
		const value: unknown = JSON.parse(text)
		return Array.isArray(value) ? value : []
	} catch {
		return []
	}
}

/** Where Ferry is reached from outside: ServerAddress when set, else the origin the client called. */
export const publicOrigin = (dependencies: Dependencies, request: Request) => dependencies.options.get('ServerAddress') || new URL(request.url).origin

/** A task as midjourney-proxy answers it (times in milliseconds). */
export function drawingView(dependencies: Dependencies, row: DrawingRow, origin: string) {
	return {
		id: row.mjId,
		action: row.action,
		prompt: row.prompt,
		promptEn: row.promptEn,
		description: row.description,
		state: row.state,
		submitTime: row.submitTime * MILLISECONDS_PER_SECOND,
		startTime: row.startTime * MILLISECONDS_PER_SECOND,
		finishTime: row.finishTime * MILLISECONDS_PER_SECOND,
		imageUrl: shownDrawingImage(dependencies.secrets, dependencies.options.get('MjForwardUrlEnabled'), row, origin),
		status: row.status,
		progress: row.progress,
		failReason: row.failReason,
		buttons: parsedList(row.buttons),
		properties: parseJsonObject(row.properties),
	}
}

export async function fetchDrawing(dependencies: Dependencies, caller: RelayCaller, mjId: string, origin: string) {
	const row = await ownDrawing(dependencies, caller.user.id, mjId)
	if (!row) throw taskErrors.notFound()
	return drawingView(dependencies, row, origin)
}

export async function listDrawings(dependencies: Dependencies, caller: RelayCaller, body: Record<string, unknown>, origin: string) {
	const ids = body.ids
	if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw relayErrors.badRequest('ids must be a list of task ids')
	if (ids.length > MAX_LISTED_IDS) throw relayErrors.badRequest(`ids may name at most ${MAX_LISTED_IDS} tasks`)
	if (ids.length === 0) return []
	const { store } = dependencies
	const { tasks } = store.tables
	const found = (await store.db.select().from(tasks)
		.where(isDrawing(store.tables, eq(tasks.userId, caller.user.id), inTexts(tasks.taskId, ids as string[]))).orderBy(desc(tasks.id))).map(drawingOf)
	const newest = new Map<string, DrawingRow>()
	for (const row of found) if (!newest.has(row.mjId)) newest.set(row.mjId, row)
	return (ids as string[]).flatMap((id) => newest.get(id) ?? []).map((row) => drawingView(dependencies, row, origin))
}

/** Asks the task's own channel for the image seed and answers its `{code, description, result}`. */
export async function imageSeed(dependencies: Dependencies, relay: RelayServices, caller: RelayCaller, mjId: string): Promise<Response> {
	const row = await ownDrawing(dependencies, caller.user.id, mjId)
	if (!row) throw taskErrors.notFound()
	await relay.routing.ready()
	const enabled = relay.routing.channel(row.channelId)
	const reader = enabled && (await loadAdaptor(enabled.type))?.tasks?.readRequest
	if (!enabled || !reader) throw taskErrors.channelUnavailable()
	// Asked with the key that submitted the task.
	const channel = withTaskKey(relay, enabled, readBilling(row.privateData).key_index)
	const upstream = reader(channel, `/mj/task/${encodeURIComponent(mjId)}/image-seed`)
	let status: number
	let answer: unknown
	try {
		const response = await relay.outbound(upstream.url, { method: 'GET', headers: upstream.headers, signal: AbortSignal.timeout(SEED_TIMEOUT_MS) })
		status = response.status
		answer = JSON.parse(await response.text())
	} catch {
		throw taskErrors.unanswered()
	}
	if (!isObject(answer)) throw taskErrors.unanswered()
	const description = typeof answer.description === 'string' ? scrubSecrets(answer.description, channel) : ''
	return Response.json({ code: answer.code, description, result: answer.result ?? null }, { status })
}

/**
 * The outbound policy of an image URL an upstream reported: on the channel's own host it has the
 * channel's trust (`upstream`: a private deployment needs the super admin's consent); anywhere else
 * (Discord's CDN) it is fetched like any URL Ferry did not choose, from public addresses only.
 */
function imagePolicy(imageUrl: string, channelBaseUrl: string | undefined): OutboundPolicy {
	try {
		return channelBaseUrl && new URL(imageUrl).host === new URL(channelBaseUrl).host ? 'upstream' : 'user-content'
	} catch {
		return 'user-content'
	}
}

/**
 * The image of a task, fetched from where the upstream put it and passed on. Only images: anything
 * else served from Ferry's origin could run script in the console's pages.
 */
export async function proxyImage(dependencies: Dependencies, mjId: string, signature: string): Promise<Response> {
	if (!signature || !isMidjourneyImageSignature(dependencies.secrets, mjId, signature)) {
		return Response.json({ error: 'the image link is not valid' }, { status: 403 })
	}
	const { store } = dependencies
	const { tasks, channels } = store.tables
	const found = await store.db.select({ data: tasks.data, baseUrl: channels.baseUrl }).from(tasks)
		.leftJoin(channels, eq(channels.id, tasks.channelId))
		.where(isDrawing(store.tables, eq(tasks.taskId, mjId))).orderBy(desc(tasks.id)).limit(IMAGE_ROWS_READ)
	const row = found.map(({ data, baseUrl }) => ({ imageUrl: drawingPayloadOf(data).imageUrl, baseUrl })).find(({ imageUrl }) => imageUrl !== '')
	if (!row) return Response.json({ error: 'the task has no image yet' }, { status: 404 })
	let upstream: Response
	try {
		upstream = await dependencies.fetch(row.imageUrl, { policy: imagePolicy(row.imageUrl, row.baseUrl ?? undefined), maxBytes: IMAGE_MAX_BYTES, timeouts: IMAGE_TIMEOUTS })
	} catch (error) {
		dependencies.logger.warn('fetching a drawing task image failed', { mjId, reason: String((error as Error).name ?? error) })
		return Response.json({ error: 'the image could not be fetched' }, { status: 502 })
	}
	const contentType = (upstream.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
	if (!upstream.ok || !contentType.startsWith('image/')) {
		await upstream.body?.cancel().catch(() => {})
		return Response.json({ error: upstream.ok ? 'the upstream did not answer an image' : `the upstream answered ${upstream.status}` }, { status: 502 })
	}
	return new Response(upstream.body, {
		headers: {
			'content-type': contentType,
			'cache-control': `private, max-age=${IMAGE_CACHE_SECONDS}`,
			'x-content-type-options': 'nosniff',
			'content-security-policy': "default-src 'none'",
		},
	})
}

