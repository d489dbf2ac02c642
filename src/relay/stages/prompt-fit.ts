/**
 * Channels' `max_input_tokens`, applied after the price stage counted the prompt: a channel whose
 * limit (> 0) is below the prompt is not chosen for the call, so routing (and every retry) picks
 * among the others; when none is left — the pinned channel included — the call is refused with a
 * 400 `context_length_exceeded` before any hold.
 *
 * A long session's response continuing one its socket (or channel) keeps is `bound` to that channel:
 * it is refused when it does not fit there, as a pinned call is, since another channel could not
 * continue it (src/relay/sessions/responses-socket.ts).
 *
 * The price stage's estimate is an upper bound: only when it exceeds a limit is the prompt counted
 * with the tokenizer, and the count decides. Calls on models none of whose channels set a limit pay
 * one cached candidate lookup.
 */
import { countPrompt, estimatePrompt } from '@/billing/tokenizer'
import { relayErrors } from '../errors'
import type { RoutableChannel } from '../routing/routing-table'
import type { RelayServices } from '../services'
import type { PricedCall } from './call'

const limited = (channel: RoutableChannel) => channel.maxInputTokens > 0

export async function fitPrompt(relay: RelayServices, call: PricedCall, bound?: RoutableChannel): Promise<PricedCall> {
	const pinnedId = call.caller.pinnedChannelId
	const { acceptance } = call
	const pinned = pinnedId === undefined ? undefined : relay.routing.channel(pinnedId)
	const candidates = pinnedId === undefined ? relay.routing.candidates(call.group, call.model, acceptance.accepts, acceptance.cacheKey) : pinned ? [pinned] : []
	const limits = candidates.filter(limited).map((channel) => channel.maxInputTokens)
	const boundLimit = bound !== undefined && limited(bound) ? bound.maxInputTokens : Infinity
	if (limits.length === 0 && boundLimit === Infinity) return call
	if (estimatePrompt(call.prompt) <= Math.min(boundLimit, ...limits)) return call
	const tokens = await countPrompt(call.prompt)
	if (boundLimit < tokens) throw relayErrors.promptTooLong(tokens, call.model, boundLimit)
	const tooSmall = limits.filter((limit) => limit < tokens)
	if (tooSmall.length === 0) return call
	const fits = (channel: RoutableChannel) => !limited(channel) || channel.maxInputTokens >= tokens
	if (!candidates.some(fits)) throw relayErrors.promptTooLong(tokens, call.model, Math.max(...limits))
	// The channels left out are those whose limit is at most the largest one below the prompt: that
	// limit names the filter, so the routing table keeps one answer per limit, not one per prompt.
	const { accepts, cacheKey } = acceptance
	call.acceptance = { accepts: (channel) => accepts(channel) && fits(channel), cacheKey: `${cacheKey} prompt-over ${Math.max(...tooSmall)}` }
	return call
}
