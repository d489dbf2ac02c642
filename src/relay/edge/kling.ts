/**
 * Kling's native paths for its own clients (`/kling/v1/videos/{text2video,image2video}` and
 * `GET …/{task_id}`), with the client's Ferry key as the bearer token. A submit is the same call as
 * `POST /v1/videos` (formats/kling converts the request; the stages price, hold and route it, to any
 * channel serving the model), answered in Kling's envelope with Ferry's video id as `task_id`; a
 * query reads the caller's own video, its finished video on Ferry's signed content route. Errors in
 * Kling's shape: `{code, message, request_id}`.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { ClientAddress } from '@/lib/client-address'
import { videoContentPath } from '@/auth/signed-links'
import { type ErrorResponder, relayFailure, requestIdHeader } from '../errors'
import { NO_EXTRAS } from '../formats/canonical'
import { KLING_KINDS, type KlingKind, klingAnswer, klingErrorCode, klingTaskData, klingToOpenAI } from '../formats/kling/videos'
import { openAIClientFormat } from '../formats/openai/client'
import type { RelayServices } from '../services'
import { publicOrigin } from '../tasks/midjourney-read'
import { retrieveVideo } from '../tasks/videos/video-reads'
import { readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'
import { videoSubmitsOn } from './videos'

type Context = { request: Request; server: Parameters<ClientAddress>[0]; params: Record<string, string> }

const klingErrorResponse: ErrorResponder = (error, requestId) =>
	Response.json({ code: klingErrorCode(error.status), message: error.message, request_id: requestId ?? '' }, { status: error.status, headers: requestIdHeader(requestId) })

export function klingRoutes(dependencies: Dependencies, relay: RelayServices) {
	const address = (context: Context) => dependencies.clientAddress(context.server, context.request)
	const contentUrl = (request: Request, id: string) => `${publicOrigin(dependencies, request)}${videoContentPath(dependencies.secrets, id)}`

	const submit = (kind: KlingKind) => async (context: Context) => {
		const { request } = context
		const answer = await respond(dependencies, relay, request, address(context), klingErrorResponse, async () => {
			const caller = await relay.authenticate(bearerKey(request.headers), address(context))
			videoSubmitsOn(dependencies)
			const { value } = await readJsonCall(request, relay.bodyGate(caller))
			return { call: { request: { endpoint: 'videos', body: klingToOpenAI(value, kind), extras: NO_EXTRAS }, caller }, format: openAIClientFormat }
		})
		if (!answer.ok) return answer
		const requestId = answer.headers.get('x-ferry-request-id') ?? ''
		const video = await answer.json()
		return Response.json(klingAnswer(klingTaskData(video, contentUrl(request, video.id)), requestId), { headers: requestIdHeader(requestId) })
	}

	const query = async (context: Context) => {
		try {
			const caller = await relay.authenticate(bearerKey(context.request.headers), address(context))
			const video = await retrieveVideo(dependencies, caller.user.id, context.params.id!)
			return Response.json(klingAnswer(klingTaskData(video, contentUrl(context.request, video.id))))
		} catch (error) {
			return relayFailure(error, dependencies.logger, klingErrorResponse)
		}
	}

	const [text, image] = KLING_KINDS
	return new Elysia({ prefix: '/kling/v1/videos' })
		.post(`/${text}`, submit(text), { parse: 'none' })
		.get(`/${text}/:id`, query)
		.post(`/${image}`, submit(image), { parse: 'none' })
		.get(`/${image}/:id`, query)
}
