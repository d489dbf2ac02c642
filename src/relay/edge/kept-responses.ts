/**
 * Calls about a response an upstream keeps: `GET` and `DELETE /v1/responses/{id}`,
 * `GET /v1/responses/{id}/input_items` and `POST /v1/responses/{id}/cancel`. Each goes to the channel
 * that created the response (db/stores/kept-responses.ts), with the client's query string, and its
 * answer (a stream too: `GET …?stream=true`) passes back as it came. They cost nothing. A response Ferry
 * does not know for this key's user is a 404, as OpenAI answers one it does not have; bridged responses
 * are never known (nothing keeps them).
 */
import type { Dependencies } from '@/dependencies'
import { forgetResponse, keptResponsePlace } from '@/db/stores/kept-responses'
import type { BodyReader } from '@/lib/outbound'
import { openAIErrorResponse, relayErrors, relayFailure, RelayError } from '../errors'
import type { RelayServices } from '../services'
import { bearerKey } from './token-auth'
import { loadAdaptor } from '../providers/registry'
import { scrubSecrets, upstreamMessageOf } from '../upstream/messages'

export type KeptAction = { method: 'GET' | 'DELETE'; suffix: '' | '/input_items' } | { method: 'POST'; suffix: '/cancel' }

const ERROR_BODY_LIMIT = 64 * 1024

function readable(body: BodyReader | undefined): ReadableStream<Uint8Array> | null {
	if (!body) return null
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			const chunk = await body.read()
			if (chunk.done) controller.close()
			else controller.enqueue(chunk.value)
		},
		cancel: (reason) => body.cancel(reason),
	})
}

export async function relayKeptResponse(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, responseId: string, action: KeptAction): Promise<Response> {
	try {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		const place = await keptResponsePlace(dependencies.store, responseId, caller.user.id)
		if (place === undefined) throw new RelayError(404, `Response with id '${responseId}' not found.`, 'invalid_request_error', 'response_not_found')
		await relay.routing.ready()
		const routable = relay.routing.channel(place.channelId)
		// The upstream keeps the response for the key that created it: asked with that key (while it is usable).
		const key = routable?.keys.find((candidate) => candidate.index === place.keyIndex)?.key
		const channel = routable && key && key !== routable.key ? { ...routable, key } : routable
		const adaptor = channel && (await loadAdaptor(channel.type))
		const passThrough = adaptor?.sameFormat?.responses
		if (!channel || !adaptor || !passThrough?.storedRequest) {
			throw new RelayError(503, `the channel that created the response ${responseId} is not available now`, 'server_error', 'channel_unavailable')
		}
		const upstreamChannel = channel.baseUrl ? channel : { ...channel, baseUrl: adaptor.defaultBaseUrl }
		const built = passThrough.storedRequest(upstreamChannel, { method: action.method, path: `/${encodeURIComponent(responseId)}${action.suffix}`, search: new URL(request.url).search })
		let opened
		try {
			opened = await relay.outbound(built.url, { method: built.method, headers: built.headers, signal: request.signal })
		} catch (error) {
			if (error instanceof RelayError) throw error
			throw relayErrors.upstreamUnavailable()
		}
		if (!opened.ok) {
			const text = await opened.text().then((body) => body.slice(0, ERROR_BODY_LIMIT), () => '')
			// The upstream refusing the gateway's own credentials is not the client's key being wrong.
			if (opened.status === 401 || opened.status === 403) throw new RelayError(502, 'the upstream rejected the channel credentials', 'upstream_error', 'upstream_auth_failed')
			throw new RelayError(opened.status, scrubSecrets(upstreamMessageOf(text) ?? `upstream error ${opened.status}`, channel), 'invalid_request_error', `upstream_${opened.status}`)
		}
		if (action.method === 'DELETE') await forgetResponse(dependencies.store, responseId, caller.user.id)
		return new Response(readable(opened.body), { status: opened.status, headers: { 'content-type': opened.headers.get('content-type') ?? 'application/json' } })
	} catch (error) {
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}
