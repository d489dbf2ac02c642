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
import { countPrompt } from '@/billing/tokenizer'
import { relayCall, type CallStart } from '../stages'
import type { RelayServices } from '../services'
import { readSessionKey, type SessionKey } from '../router/session-key'

/**
 * What a client format's edge learns about the call before it is relayed: who calls, the canonical
 * request, a preferred channel, and the session when the format knows it better than the request
 * says (a continued Responses call).
 */
type PreparedCall = Pick<CallStart, 'caller' | 'request' | 'preferredChannelId' | 'preferredKeyIndex' | 'session'>

/** The stream as the client format reads it, finishing the call's record (and `ended`) when it ends or is cancelled. */
function recordedStream(events: EventReader, record: CallRecord, ended: () => void): EventReader {
	return {
		async read() {
			try {
				const batch = await events.read()
				if (batch.done) {
					record.finish(batch.events.some((event) => event.type === 'failed') ? 'stream_failed' : 'success')
					ended()
				}
				return batch
			} catch (error) {
				record.finish('stream_failed')
				ended()
				throw error
			}
		},
		async cancel(reason) {
			record.finish('client_closed')
			ended()
			await events.cancel(reason)
		},
	}
}

const NOTHING_TO_END = () => {}

/** `Cache-Control: no-cache` (or `no-store`, or the older `Pragma: no-cache`): the response cache is not asked. */
const asksFreshAnswer = (headers: Headers) => /\bno-(cache|store)\b/i.test(`${headers.get('cache-control') ?? ''} ${headers.get('pragma') ?? ''}`)

/** The session a call names (router/session-key.ts), unless affinity is off or the key pins a channel. */
function sessionOf(dependencies: Dependencies, request: Request, call: PreparedCall): SessionKey | undefined {
	const { options } = dependencies
	if (call.session || !options.get('AffinityEnabled') || call.caller.pinnedChannelId !== undefined) return call.session
	const body = call.request.native?.value ?? call.request.body
	const model = (call.request.body as { model?: unknown } | null)?.model
	if (typeof model !== 'string') return undefined
	return readSessionKey({ userId: call.caller.user.id, model, path: new URL(request.url).pathname, headers: request.headers, body }, options.get('AffinityRules'), options.get('AffinityDefaultSourcesEnabled'))
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
	let inFlight: (() => void) | undefined
	try {
		const prepared = await prepare()
		const { call } = prepared
		await relay.routing.ready()
		const model = (call.request.body as { model?: unknown } | null)?.model
		metrics.describe(call.request.endpoint, model)
		const modelName = typeof model === 'string' ? model : undefined
		const succeeded = await relay.requestLimits.admit(call.caller, modelName)
		inFlight = await relay.concurrency.acquire(call.caller, modelName)
		const passThroughWire = prepared.format.passThroughWire
		const result = await relayCall(dependencies, relay, {
			requestId, caller: call.caller, request: call.request, preferredChannelId: call.preferredChannelId, preferredKeyIndex: call.preferredKeyIndex, session: sessionOf(dependencies, request, call),
			signal: request.signal, clientAddress, startedAt, metrics, passThroughWire, bypassResponseCache: asksFreshAnswer(request.headers),
		})
		succeeded?.()
		// While the response cache is on, every answer says whether it came from it.
		const cache = result.cache ?? (dependencies.options.get('ResponseCacheSeconds') > 0 ? 'miss' : undefined)
		const headers: Record<string, string> = { 'x-ferry-request-id': requestId, ...(cache ? { 'x-ferry-cache': cache } : {}) }
		if (result.kind === 'stream') {
			// The call stays in flight until its stream ends.
			const ended = inFlight ?? NOTHING_TO_END
			inFlight = undefined
			const promptTokens = prepared.format.countsPrompt?.(result.wire) ? countPrompt(result.prompt).catch(() => 0) : undefined
			return new Response(prepared.format.stream(recordedStream(result.events, metrics, ended), result.wire, result.answeredBy, promptTokens), {
				status: 200,
				headers: { ...headers, 'content-type': prepared.format.streamContentType, 'cache-control': 'no-cache' },
			})
		}
		// Image, audio and moderation answers reach every client as the upstream sent them (stages/media-answer.ts).
		response = result.kind === 'media'
			? new Response(result.body, { status: 200, headers: { ...headers, 'content-type': result.contentType } })
			: new Response(await prepared.format.answerText(result.answer, result.wire, result.text, result.answeredBy), { status: 200, headers: { ...headers, 'content-type': 'application/json' } })
	} catch (error) {
		response = !(error instanceof RelayError) && request.signal.aborted
			? respondError(new RelayError(499, 'the client closed the request', 'invalid_request_error', 'client_closed'), requestId)
			: relayFailure(error, dependencies.logger, respondError, requestId)
	}
	inFlight?.()
	metrics.finish(outcomeOfStatus(response.status))
	return response
}
