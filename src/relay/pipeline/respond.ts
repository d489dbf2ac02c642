/**
 * The edge of every relay endpoint: a client format's handler reads and converts its request, the
 * core relays it (relay-call.ts), and the format encodes the typed result or the failure. Failures
 * answer in the format's shape with the request id; a client that went away gets 499.
 */
import type { Dependencies } from '@/dependencies'
import { newRequestId } from '@/lib/crypto'
import { type ErrorResponder, RelayError, relayFailure } from '../errors'
import type { ClientFormat } from '../formats/client-format'
import { relayCall, type CallRequest } from './relay-call'
import type { RelayServices } from './services'

/** What a handler learns about the call before it is relayed: everything of CallRequest but what the edge adds. */
type PreparedCall = Omit<CallRequest, 'requestId' | 'signal' | 'clientAddress' | 'startedAt'>

/**
 * Runs one call. `prepare` reads, checks and converts the client's request (throwing a RelayError
 * to refuse it) and answers the call together with the format that will encode its result;
 * `respondError` answers failures in the format's shape.
 */
export async function respond(
	dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string,
	respondError: ErrorResponder, prepare: () => Promise<{ call: PreparedCall; format: ClientFormat }>,
): Promise<Response> {
	const requestId = newRequestId()
	const startedAt = performance.now()
	try {
		const prepared = await prepare()
		const result = await relayCall(dependencies, relay, { ...prepared.call, requestId, signal: request.signal, clientAddress, startedAt })
		const headers = { 'x-ferry-request-id': requestId }
		if (result.kind === 'stream') {
			return new Response(prepared.format.stream(result.events, result.wire, result.channelId), {
				status: 200,
				headers: { ...headers, 'content-type': prepared.format.streamContentType, 'cache-control': 'no-cache' },
			})
		}
		// Image, audio and moderation answers reach every client as the upstream sent them (media-answer.ts).
		if (result.kind === 'media') return new Response(result.body, { status: 200, headers: { ...headers, 'content-type': result.contentType } })
		return new Response(await prepared.format.answerText(result.answer, result.wire, result.text, result.channelId), { status: 200, headers: { ...headers, 'content-type': 'application/json' } })
	} catch (error) {
		if (!(error instanceof RelayError) && request.signal.aborted) {
			return respondError(new RelayError(499, 'the client closed the request', 'invalid_request_error', 'client_closed'), requestId)
		}
		return relayFailure(error, dependencies.logger, respondError, requestId)
	}
}
