/**
 * `POST /pg/chat/completions`: the console's playground. Authenticated by the session cookie and
 * the `New-Api-User` header; the body is an OpenAI chat request plus an optional `group`, which is
 * taken out before the call goes upstream. Errors answer in OpenAI's shape; Ferry's own refusals
 * are worded in the console's language (`Accept-Language`, then the `language` cookie), unlike
 * the `/v1` relay's, which stay English for API clients.
 */
import { Elysia } from 'elysia'
import { requestLanguage } from '@shared/request-language'
import type { Dependencies } from '@/dependencies'
import { type ErrorResponder, inLanguage, openAIErrorResponse } from '../../errors'
import { canonicalRequestFromOpenAI } from '../../formats/canonical'
import { isObject } from '../../formats/json'
import { openAIClientFormat } from '../../formats/openai/client'
import { readJsonCall } from '../read-body'
import { respond } from '../respond'
import type { RelayServices } from '../../services'
import { playgroundCaller, playgroundGroup, playgroundUser } from './caller'

function playgroundChat(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	const language = requestLanguage(request)
	const respondError: ErrorResponder = (error, requestId) => openAIErrorResponse(inLanguage(error, language), requestId)
	return respond(dependencies, relay, request, clientAddress, respondError, async () => {
		const user = await playgroundUser(dependencies, request.headers)
		// Gated as the wallet alone: the playground's token has no balance of its own.
		const { value: body } = await readJsonCall(request, relay.bodyGate(playgroundCaller(user, user.group)))
		let forwarded = body
		let requestedGroup: unknown
		if (isObject(body)) {
			const { group, ...rest } = body
			requestedGroup = group
			forwarded = rest
		}
		const caller = playgroundCaller(user, playgroundGroup(dependencies, user, requestedGroup))
		// Not the client's bytes: `group` is taken out.
		return { call: { request: canonicalRequestFromOpenAI('chat', forwarded), caller }, format: openAIClientFormat }
	})
}

export function playgroundRoutes(dependencies: Dependencies, relay: RelayServices) {
	return new Elysia({ prefix: '/pg' })
		.post('/chat/completions', ({ request, server }) => playgroundChat(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
}
