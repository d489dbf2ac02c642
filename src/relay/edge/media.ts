/**
 * The HTTP edge of OpenAI's image, audio and moderation endpoints under `/v1` (OpenAI API
 * reference). JSON bodies (`/images/generations`, `/audio/speech`, `/moderations`, and
 * `/images/edits` in its JSON form) go upstream as the client's bytes while Ferry changes nothing in
 * them; uploads (`/images/edits`, `/images/variations`, `/audio/transcriptions`,
 * `/audio/translations`) are read within the relay's body limit and passed on intact
 * (formats/media/multipart.ts). A request that names no model gets OpenAI's default for the
 * endpoint. Answers pass through as the upstream sent them (stages/media-answer.ts).
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { ClientAddress } from '@/lib/client-address'
import { openAIErrorResponse } from '../errors'
import { respond } from './respond'
import type { RelayServices } from '../services'
import { bearerKey } from './token-auth'
import type { MediaEndpoint } from '../providers/types'
import { openAIClientFormat } from '../formats/openai/client'
import { readJsonCall, readUploadCall } from './read-body'
import { canonicalUpload } from '../formats/media/multipart'
import { NO_EXTRAS } from '../formats/canonical'
import { withDefaultModel } from '../formats/media/requests'

type Uploads = 'json' | 'multipart'

/** Whether the request says it carries JSON (the JSON form of an endpoint that also takes uploads). */
const isJsonRequest = (request: Request) => (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')

/** One call: the key is authenticated before the body is read. */
function relayMedia(dependencies: Dependencies, relay: RelayServices, endpoint: MediaEndpoint, uploads: Uploads, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, openAIErrorResponse, async () => {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		if (uploads === 'json' || isJsonRequest(request)) {
			const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
			const body = withDefaultModel(endpoint, value)
			return { call: { request: { endpoint, body, extras: NO_EXTRAS, bodyText: body === value ? text : undefined }, caller }, format: openAIClientFormat }
		}
		const { body, upload } = canonicalUpload(await readUploadCall(request, relay.bodyGate(caller)))
		return { call: { request: { endpoint, body: withDefaultModel(endpoint, body), extras: NO_EXTRAS, upload }, caller }, format: openAIClientFormat }
	})
}

export function mediaRoutes(dependencies: Dependencies, relay: RelayServices) {
	const route = (endpoint: MediaEndpoint, uploads: Uploads) => ({ request, server }: { request: Request; server: Parameters<ClientAddress>[0] }) =>
		relayMedia(dependencies, relay, endpoint, uploads, request, dependencies.clientAddress(server, request))
	return new Elysia()
		.post('/images/generations', route('image-generations', 'json'), { parse: 'none' })
		.post('/images/edits', route('image-edits', 'multipart'), { parse: 'none' })
		.post('/images/variations', route('image-variations', 'multipart'), { parse: 'none' })
		.post('/audio/speech', route('speech', 'json'), { parse: 'none' })
		.post('/audio/transcriptions', route('transcriptions', 'multipart'), { parse: 'none' })
		.post('/audio/translations', route('translations', 'multipart'), { parse: 'none' })
		.post('/moderations', route('moderations', 'json'), { parse: 'none' })
}
