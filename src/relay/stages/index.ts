/**
 * The core of every relayed call, whatever format the client speaks: the stages in order.
 *
 *   admit → price (and prompt fit) → hold → response cache → send (asking route for each attempt's target) → meter → settle
 *
 * The response cache (response-cache.ts) answers an identical call it keeps, settled at its own
 * price, and otherwise keeps what the upstream answered once it completes.
 *
 * Each stage takes the call's state (call.ts) and adds what it decided; NOTES.md tells each one's
 * contract. A call refused before its hold costs nothing; once held, the hold ends through the
 * call's scope exactly once: a whole answer is settled before it is returned, a stream is settled
 * or voided by its meter when it ends, and any failure voids it here. This file never builds an
 * HTTP response: the edge (edge/respond.ts) encodes the typed result in the client's format.
 */
import type { Dependencies } from '@/dependencies'
import type { RelayServices } from '../services'
import { admit } from './admit'
import type { CallStart } from './call'
import { hold } from './hold'
import { meter } from './meter'
import { price } from './price'
import { fitPrompt } from './prompt-fit'
import { answerFromCache, cacheTicket, recordInCache, type RelayResult } from './response-cache'
import { send } from './send'

export type { CallResult } from './meter'
export type { RelayResult } from './response-cache'
export type { CallStart } from './call'

/** Throws a RelayError (in no format: the edge renders it) when the call is refused or fails. */
export async function relayCall(dependencies: Dependencies, relay: RelayServices, start: CallStart): Promise<RelayResult> {
	const call = await hold(dependencies, relay, await fitPrompt(relay, price(dependencies, await admit(dependencies, relay, start))))
	try {
		const ticket = cacheTicket(dependencies, call)
		const cached = ticket && await answerFromCache(dependencies, relay, call, ticket)
		if (cached) return cached
		const result = await meter(dependencies, relay, call, await send(dependencies, relay, call))
		return ticket ? recordInCache(dependencies, relay, call, ticket, result) : result
	} catch (error) {
		// Whatever failed before an answer could be returned: nothing billable reached the client.
		await call.scope.void('upstream_failed')
		throw error
	}
}
