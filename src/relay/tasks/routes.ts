/**
 * The task relays (docs/architecture.md#the-task-pipeline): midjourney-proxy's API under `/mj` (and `/fast/mj`, `/relax/mj`,
 * `/turbo/mj`), the Suno API under `/suno`. Authenticated by an API token (`Authorization: Bearer
 * sk-…`, or `mj-api-secret` for Midjourney clients); answers in each client's own shape.
 * DrawingEnabled and TaskEnabled switch the submits off; reading one's own tasks stays possible.
 * A submit (a paid upstream call) counts toward the caller's request rate limits as a relayed call
 * does (edge/request-limits.ts): refused over a limit before anything is held or sent, and
 * counted as a success once the upstream took the task. Reading tasks is not counted.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { type ErrorResponder, RelayError, relayFailure } from '../errors'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import { midjourneyErrorResponse, sunoErrorResponse } from './answers'
import { MJ_MODES, MJ_SUBMIT_PATHS } from './midjourney-actions'
import { fetchDrawing, imageSeed, listDrawings, proxyImage, publicOrigin } from './midjourney-read'
import { submitDrawing } from './midjourney-submit'
import { readTaskBody } from './request-body'
import { fetchSong, fetchSongs, submitSong } from './suno'
import { taskErrors } from './task-errors'
import { taskKey } from './task-key'

/** A task path the relay does not serve (newer midjourney-proxy calls: video, edits…). */
const notSupported = (request: Request) => new RelayError(404, `${new URL(request.url).pathname} is not supported by this gateway`, 'invalid_request_error', 'not_found')

type Context = { request: Request; server: Parameters<Dependencies['clientAddress']>[0]; params: Record<string, string> }
type Handler = (context: Context, caller: RelayCaller, clientAddress: string) => Promise<Response | unknown>

export function taskRoutes(dependencies: Dependencies, relay: RelayServices) {
	const { options } = dependencies
	/** Authenticates the token, runs the handler, and answers any failure in the client's shape. */
	const answering = (respond: ErrorResponder, handler: Handler) => async (context: Context) => {
		try {
			const clientAddress = dependencies.clientAddress(context.server, context.request)
			const caller = await relay.authenticate(taskKey(context.request.headers), clientAddress)
			const result = await handler(context, caller, clientAddress)
			return result instanceof Response ? result : Response.json(result)
		} catch (error) {
			return relayFailure(error, dependencies.logger, respond)
		}
	}
	/** A submit handler counted by the request rate limits. */
	const limited = (handler: Handler): Handler => async (context, caller, clientAddress) => {
		const succeeded = await relay.requestLimits.admit(caller)
		const result = await handler(context, caller, clientAddress)
		if (!(result instanceof Response) || result.ok) succeeded?.()
		return result
	}
	const drawing = (handler: Handler) => answering(midjourneyErrorResponse, handler)
	const drawingOn = () => {
		if (!options.get('DrawingEnabled')) throw taskErrors.drawingDisabled()
	}

	const midjourney = (modePrefix: string) => {
		let routes = new Elysia({ prefix: `${modePrefix}/mj` })
		for (const path of MJ_SUBMIT_PATHS) {
			routes = routes.post(`/${path}`, drawing(limited(async ({ request }, caller, clientAddress) => {
				drawingOn()
				return submitDrawing(dependencies, relay, { caller, path, modePrefix, body: await readTaskBody(request, relay.bodyGate(caller)), clientAddress })
			})), { parse: 'none' })
		}
		return routes
			.get('/task/:id/fetch', drawing(({ request, params }, caller) => fetchDrawing(dependencies, caller, params.id!, publicOrigin(dependencies, request))))
			.get('/task/:id/image-seed', drawing(({ params }, caller) => {
				drawingOn()
				return imageSeed(dependencies, relay, caller, params.id!)
			}))
			.post('/task/list-by-condition', drawing(async ({ request }, caller) => listDrawings(dependencies, caller, await readTaskBody(request, relay.bodyGate(caller)), publicOrigin(dependencies, request))), { parse: 'none' })
			// GET too: the console's page route would otherwise answer unknown GETs.
			.get('/*', ({ request }) => midjourneyErrorResponse(notSupported(request)))
			.all('/*', ({ request }) => midjourneyErrorResponse(notSupported(request)))
	}

	const song = (handler: Handler) => answering(sunoErrorResponse, handler)
	const suno = new Elysia({ prefix: '/suno' })
		.post('/submit/:action', song(limited(async ({ request, params }, caller, clientAddress) => {
			if (!options.get('TaskEnabled')) throw taskErrors.tasksDisabled()
			return submitSong(dependencies, relay, { caller, action: params.action!, body: await readTaskBody(request, relay.bodyGate(caller)), clientAddress })
		})), { parse: 'none' })
		.post('/fetch', song(async ({ request }, caller) => fetchSongs(dependencies, caller, await readTaskBody(request, relay.bodyGate(caller)))), { parse: 'none' })
		.get('/fetch/:id', song(({ params }, caller) => fetchSong(dependencies, caller, params.id!)))
		.get('/*', ({ request }) => sunoErrorResponse(notSupported(request)))
		.all('/*', ({ request }) => sunoErrorResponse(notSupported(request)))

	let routes = new Elysia()
		.use(midjourney(''))
		// The image links are their own authorisation (signed): no token, and drawing need not be on.
		.get('/mj/image/:id', ({ params, query }) => proxyImage(dependencies, params.id, typeof query.signature === 'string' ? query.signature : ''))
		.use(suno)
	for (const mode of MJ_MODES) routes = routes.use(midjourney(`/${mode}`))
	return routes
}

