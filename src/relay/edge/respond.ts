/**
 * Runs one call at the edge, whatever the client format: the format's `prepare` authenticates the
 * caller and makes the canonical request, the caller's request rate limits are counted, the stages
 * relay it (stages/index.ts), and the format encodes the typed result or the failure. Failures
 * answer in the format's shape with the request id; a client that went away gets 499. Each call's
 * metrics record (call-metrics.ts) is finished here with what the client got: at the answer or the
 * failure, or when a stream ends.
 */
import type { Dependencies } from '@/dependencies'
import { newRequestId } from '@/lib/crypto'
import { type ErrorResponder, RelayError, relayFailure } from '../errors'
import type { ClientFormat } from '../formats/client-format'
import type { EventReader } from '../formats/events'
import { outcomeOfStatus, type CallRecord } from '../call-metrics'
import { relayCall, type CallStart } from '../stages'
import type { RelayServices } from '../services'

/** What a client format's edge learns about the call before it is relayed: who calls, the canonical request, a preferred channel. */
type PreparedCall = Pick<CallStart, 'caller' | 'request' | 'preferredChannelId'>

/** The stream as the client format reads it, finishing the call's record when it ends or is cancelled. */
function recordedStream(events: EventReader, record: CallRecord): EventReader {
	return {
		async read() {
			try {
				const batch = await events.read()
				if (batch.done) record.finish(batch.events.some((event) => event.type === 'failed') ? 'stream_failed' : 'success')
				return batch
			} catch (error) {
				record.finish('stream_failed')
				throw error
			}
		},
		async cancel(reason) {
			record.finish('client_closed')
			await events.cancel(reason)
		},
	}
}

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
	const metrics = relay.metrics.begin(startedAt)
	let response: Response
	try {
		const prepared = await prepare()
		const { call } = prepared
		await relay.routing.ready()
		metrics.describe(call.request.endpoint, (call.request.body as { model?: unknown } | null)?.model)
		const succeeded = await relay.requestLimits.admit(call.caller)
		const passThroughWire = prepared.format.passThroughWire
		const result = await relayCall(dependencies, relay, {
			requestId, caller: call.caller, request: call.request, preferredChannelId: call.preferredChannelId, signal: request.signal, clientAddress, startedAt, metrics, passThroughWire,
		})
		succeeded?.()
		const headers = { 'x-ferry-request-id': requestId }
		if (result.kind === 'stream') {
			return new Response(prepared.format.stream(recordedStream(result.events, metrics), result.wire, result.channelId), {
				status: 200,
				headers: { ...headers, 'content-type': prepared.format.streamContentType, 'cache-control': 'no-cache' },
			})
		}
		// Image, audio and moderation answers reach every client as the upstream sent them (stages/media-answer.ts).
		response = result.kind === 'media'
			? new Response(result.body, { status: 200, headers: { ...headers, 'content-type': result.contentType } })
			: new Response(await prepared.format.answerText(result.answer, result.wire, result.text, result.channelId), { status: 200, headers: { ...headers, 'content-type': 'application/json' } })
	} catch (error) {
		response = !(error instanceof RelayError) && request.signal.aborted
			? respondError(new RelayError(499, 'the client closed the request', 'invalid_request_error', 'client_closed'), requestId)
			: relayFailure(error, dependencies.logger, respondError, requestId)
	}
	metrics.finish(outcomeOfStatus(response.status))
	return response
}
