/**
 * OpenAI's image, audio and moderation endpoints under `/v1` (OpenAI API reference). JSON bodies
 * (`/images/generations`, `/audio/speech`, `/moderations`) take the OpenAI-format path as they are;
 * uploads (`/images/edits`, `/images/variations`, `/audio/transcriptions`, `/audio/translations`) are
 * read within the relay's body limit (multipart.ts). Answers pass through as the upstream sent them
 * (pipeline/media-answer.ts).
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { openAIErrorResponse } from '../../errors'
import { respond } from '../../pipeline/respond'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey } from '../../pipeline/token-auth'
import type { MediaEndpoint } from '../../providers/types'
import { openAIClientFormat } from '../openai/client'
import { relayOpenAI } from '../openai/endpoint'
import { readJsonRequest } from '../openai/requests'
import { isJsonRequest, readMultipartRequest } from './multipart'

/** An endpoint that takes uploads; `/images/edits` also takes OpenAI's JSON form (images by URL or file id). */
function relayUpload(dependencies: Dependencies, relay: RelayServices, endpoint: MediaEndpoint, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		if (isJsonRequest(request)) {
			const { text, value } = await readJsonRequest(request)
			return { call: { endpoint, caller, body: value, bodyText: text }, format: openAIClientFormat }
		}
		const body = await readMultipartRequest(request, dependencies.config.maxBodyBytes)
		return { call: { endpoint, caller, body }, format: openAIClientFormat }
	})
}

export function mediaRoutes(dependencies: Dependencies, relay: RelayServices) {
	const json = (endpoint: MediaEndpoint) => ({ request, server }: { request: Request; server: Parameters<Dependencies['clientAddress']>[0] }) =>
		relayOpenAI(dependencies, relay, endpoint, request, dependencies.clientAddress(server, request))
	const upload = (endpoint: MediaEndpoint) => ({ request, server }: { request: Request; server: Parameters<Dependencies['clientAddress']>[0] }) =>
		relayUpload(dependencies, relay, endpoint, request, dependencies.clientAddress(server, request))
	return new Elysia()
		.post('/images/generations', json('image-generations'), { parse: 'none' })
		.post('/images/edits', upload('image-edits'), { parse: 'none' })
		.post('/images/variations', upload('image-variations'), { parse: 'none' })
		.post('/audio/speech', json('speech'), { parse: 'none' })
		.post('/audio/transcriptions', upload('transcriptions'), { parse: 'none' })
		.post('/audio/translations', upload('translations'), { parse: 'none' })
		.post('/moderations', json('moderations'), { parse: 'none' })
}
