/**
 * Each response of a long session is one call of the relay's, billed through the same stages as an
 * HTTP call: admit (the model, the token's limits, the group, a channel that can take it), price,
 * hold — the hold taken when the response is created — and then, once the upstream reports its
 * usage, settle through the call's scope (stages/hold.ts `CallScope`); a response the session loses
 * before its usage came (a dropped socket, an ended session) is voided. Only the send and meter
 * stages differ: the socket is the session's, already open to the key that answers.
 */
import type { Dependencies } from '@/dependencies'
import { holdFor, type Usage } from '@/billing/price'
import { newRequestId } from '@/lib/crypto'
import { NO_EXTRAS, type ConvertedRequest } from '../formats/canonical'
import type { RelayCaller } from '../caller'
import type { RelayServices } from '../services'
import { admit } from '../stages/admit'
import type { AffinityOutcome, CallAttempt, HeldCall, PricedCall } from '../stages/call'
import { hold } from '../stages/hold'
import { price } from '../stages/price'
import type { RouteTarget } from '../stages/route'

/** Who a session is for and where it answers from: the same for each of its responses. */
export interface SessionParty {
	caller: RelayCaller
	clientAddress: string
	/** Aborts when the session ends. */
	signal: AbortSignal
}

/** Where one response is answered from, for its log line. */
export interface AnsweringKey {
	target: RouteTarget
	attempts: readonly CallAttempt[]
	affinity: AffinityOutcome | undefined
}

/** A held response: ended once, by its usage or voided. */
export interface OpenResponse {
	call: HeldCall
	/** The metrics endpoint label of its kind (`realtime`, `responses-socket`). */
	settle(usage: Usage): Promise<void>
	void(reason: string): Promise<void>
}

/**
 * A Realtime response's canonical request: an empty chat turn for the model, which is all admit and
 * price need (the prompt is the session's audio and text, which Ferry does not read).
 */
export function realtimeRequest(model: string, maxOutputTokens: unknown): ConvertedRequest {
	const limit = typeof maxOutputTokens === 'number' && Number.isInteger(maxOutputTokens) && maxOutputTokens > 0 ? { max_tokens: maxOutputTokens } : {}
	return { endpoint: 'chat', body: { model, stream: true, messages: [{ role: 'user', content: '' }], ...limit }, extras: NO_EXTRAS }
}

/** What a session adds to a response's admission. */
export interface ResponseTerms {
	/**
	 * When the session knows the prompt better than the request (a Realtime conversation's last
	 * input): raises the hold's prompt to it.
	 */
	promptEstimate?: number
	/** Between price and hold: narrows the channels that may answer, or throws the RelayError that refuses the response. */
	fit?(call: PricedCall): Promise<PricedCall>
}

/**
 * Admits, prices and holds one response (throws the RelayError that refuses it: 403 when the wallet
 * or token cannot cover the hold, or what `terms.fit` throws, before any hold).
 */
export async function holdResponse(
	dependencies: Dependencies, relay: RelayServices, party: SessionParty, request: ConvertedRequest, metricsEndpoint: string, terms: ResponseTerms = {},
): Promise<OpenResponse> {
	const startedAt = performance.now()
	const metrics = relay.metrics.begin(startedAt)
	metrics.describe(metricsEndpoint, (request.body as { model?: unknown }).model)
	const promptEstimate = terms.promptEstimate ?? 0
	let call: HeldCall
	try {
		let priced = price(dependencies, await admit(dependencies, relay, {
			requestId: newRequestId(), caller: party.caller, request, signal: party.signal, clientAddress: party.clientAddress, startedAt, metrics,
		}))
		if (terms.fit) priced = await terms.fit(priced)
		if (promptEstimate > 0 && priced.pricing.kind === 'per_token') {
			const limit = (priced.request.body as { max_tokens?: unknown }).max_tokens
			const allowance = typeof limit === 'number' ? limit : dependencies.options.get('PreConsumedQuota')
			priced.holdAmount = Math.max(priced.holdAmount, holdFor(priced.pricing, promptEstimate, allowance, dependencies.options.get('QuotaPerUnit')))
		}
		call = await hold(dependencies, relay, priced)
	} catch (error) {
		metrics.finish('client_error')
		throw error
	}
	return {
		call,
		async settle(usage) {
			await call.scope.settle(usage, { localCount: false })
			metrics.finish('success')
		},
		async void(reason) {
			await call.scope.void(reason)
			metrics.finish('stream_failed')
		},
	}
}

/** Tells the response's scope which key answers it (before it can settle). */
export function answeredBy(response: OpenResponse, key: AnsweringKey) {
	response.call.scope.answered(key.target, key.attempts, key.affinity)
}
