/**
 * The HTTP edge of OpenAI's Videos API under `/v1/videos`. A create (JSON, or multipart with an
 * `input_reference` image read within the relay's body limit) and a remix are relayed calls: they
 * go through the stages like any other (admit, price per second, hold, route, send), and the
 * answer hands the hold to the task (stages/video-answer.ts). Retrieve, list, delete and content
 * read Ferry's task store, the caller's own videos only (relay/tasks/videos/). Errors answer in
 * OpenAI's shape.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { ClientAddress } from '@/lib/client-address'
import { openAIErrorResponse, relayErrors, relayFailure } from '../errors'
import { NO_EXTRAS } from '../formats/canonical'
import { canonicalUpload } from '../formats/media/multipart'
import { openAIClientFormat } from '../formats/openai/client'
import { withDefaultVideoModel } from '../formats/videos/requests'
import { isObject } from '../formats/json'
import { loadAdaptor } from '../providers/registry'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import { deleteVideo, listVideos, retrieveVideo, type VideoAsset, videoContent } from '../tasks/videos/video-reads'
import { ownVideo, readVideoPropertiesOf, videoNotFound, videoOwner } from '../tasks/videos/video-rows'
import { isVideoContentSignature } from '@/auth/signed-links'
import { readBilling } from '../tasks/task-rows'
import { taskErrors } from '../tasks/task-errors'
import { TASK_STATUS } from '@shared/task-constants'
import { readJsonCall, readUploadCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'

type Context = { request: Request; server: Parameters<ClientAddress>[0]; params: Record<string, string>; query: Record<string, string | undefined> }

const isJsonRequest = (request: Request) => (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')

/** Videos are async tasks: `TaskEnabled` switches their submits (not the caller's reads). */
export function videoSubmitsOn(dependencies: Dependencies) {
	if (!dependencies.options.get('TaskEnabled')) throw taskErrors.tasksDisabled()
}

function createVideo(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		videoSubmitsOn(dependencies)
		if (isJsonRequest(request)) {
			const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
			const body = withDefaultVideoModel(value)
			return { call: { request: { endpoint: 'videos', body, extras: NO_EXTRAS, bodyText: body === value ? text : undefined }, caller }, format: openAIClientFormat }
		}
		const { body, upload } = canonicalUpload(await readUploadCall(request, relay.bodyGate(caller)))
		return { call: { request: { endpoint: 'videos', body: withDefaultVideoModel(body), extras: NO_EXTRAS, upload }, caller }, format: openAIClientFormat }
	})
}

/**
 * A remix: a new video from a completed one of the caller's, on the channel that made it, at the
 * original's length and size (and so at its price), with a new prompt.
 */
function remixVideo(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, id: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		videoSubmitsOn(dependencies)
		const { value } = await readJsonCall(request, relay.bodyGate(caller))
		const original = await ownVideo(dependencies, caller.user.id, id)
		if (original.status !== TASK_STATUS.success) throw relayErrors.badRequest(`the video ${id} has not completed: only a completed video can be remixed`)
		await relay.routing.ready()
		const channel = relay.routing.channel(original.channelId)
		if (!channel || !(await loadAdaptor(channel.type))?.videos?.remixes) throw relayErrors.badRequest(`the video ${id} cannot be remixed: its upstream does not remix videos`)
		const properties = readVideoPropertiesOf(original)
		const prompt = isObject(value) ? value.prompt : undefined
		const body = { model: properties.model, prompt, seconds: String(properties.seconds), size: properties.size }
		const pinned: RelayCaller = { ...caller, pinnedChannelId: original.channelId }
		const billing = readBilling(original.privateData)
		const remixOf = { videoId: original.taskId, upstreamId: billing.upstream_id ?? '' }
		// The upstream keeps the original for the key that made it: the remix goes with that key.
		const remix = { endpoint: 'videos' as const, body, extras: NO_EXTRAS, remixOf }
		return { call: { request: remix, caller: pinned, preferredChannelId: original.channelId, preferredKeyIndex: billing.key_index }, format: openAIClientFormat }
	})
}

function contentResponse(content: VideoAsset) {
	return new Response(content.body, {
		status: content.status,
		headers: {
			'content-type': content.contentType,
			...(content.length ? { 'content-length': content.length } : {}),
			...(content.range ? { 'content-range': content.range, 'accept-ranges': 'bytes' } : {}),
			'x-content-type-options': 'nosniff',
		},
	})
}

export function videoRoutes(dependencies: Dependencies, relay: RelayServices) {
	const address = (context: Context) => dependencies.clientAddress(context.server, context.request)
	/** A read: the token authenticated, the answer JSON, any failure in OpenAI's shape. */
	const reading = (read: (context: Context, caller: RelayCaller) => Promise<unknown>) => async (context: Context) => {
		try {
			const caller = await relay.authenticate(bearerKey(context.request.headers), address(context))
			const result = await read(context, caller)
			return result instanceof Response ? result : Response.json(result)
		} catch (error) {
			return relayFailure(error, dependencies.logger, openAIErrorResponse)
		}
	}
	return new Elysia()
		.post('/videos', (context) => createVideo(dependencies, relay, context.request, address(context)), { parse: 'none' })
		.get('/videos', reading(({ query }, caller) => listVideos(dependencies, caller.user.id, query)))
		.get('/videos/:id', reading(({ params }, caller) => retrieveVideo(dependencies, caller.user.id, params.id!)))
		.delete('/videos/:id', reading(({ params }, caller) => deleteVideo(dependencies, relay, caller.user.id, params.id!)))
		.post('/videos/:id/remix', (context) => remixVideo(dependencies, relay, context.request, address(context), context.params.id!), { parse: 'none' })
		.get('/videos/:id/content', async (context) => {
			const { params, query, request } = context
			// The task log's player: a link signed for this video stands for its owner's key.
			if (query.signature !== undefined && !request.headers.has('authorization')) {
				try {
					if (!isVideoContentSignature(dependencies.secrets, params.id!, query.signature)) throw videoNotFound(params.id!)
					return contentResponse(await videoContent(dependencies, relay, await videoOwner(dependencies, params.id!), params.id!, query.variant ?? 'video', request.signal, request.headers.get('range')))
				} catch (error) {
					return relayFailure(error, dependencies.logger, openAIErrorResponse)
				}
			}
			return reading(async (_context, caller) => contentResponse(await videoContent(dependencies, relay, caller.user.id, params.id!, query.variant ?? 'video', request.signal, request.headers.get('range'))))(context)
		})
}
