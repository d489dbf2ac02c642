/**
 * What a long session is checked for before its socket is upgraded — so that a refusal is an HTTP
 * answer in OpenAI's error shape and no upstream is ever reached for it: the key (a bearer, Azure's
 * `api-key`, or the browser's subprotocol `openai-insecure-api-key.<key>`), the model and the token's
 * limits on it, the group and a channel that takes this kind of session, a price, a wallet with quota,
 * the caller's request rate limits (a session counts as one call) and its concurrency (a session is a
 * call in flight until it ends).
 */
import type { Dependencies } from '@/dependencies'
import { resolvePricing } from '@/billing/price'
import { RelayError, relayErrors } from '../errors'
import type { RelayCaller } from '../caller'
import { servesSocket } from '../providers/registry'
import type { SocketKind } from '../providers/types'
import { noChannelError, resolveGroup } from '../routing/groups'
import type { RoutableChannel } from '../routing/routing-table'
import type { RelayServices } from '../services'
import type { ChannelAcceptance } from '../stages/call'
import { bearerKey } from '../edge/token-auth'
import { mappingServes } from '../upstream/model-mapping'

const BROWSER_KEY_PROTOCOL = 'openai-insecure-api-key.'
const BETA_PROTOCOL = 'openai-beta.'

/** The subprotocols the client offered. */
export const offeredProtocols = (request: Request) => (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((protocol) => protocol.trim()).filter(Boolean)

/** The client's key, however it came. */
export function upgradeKey(request: Request): string | undefined {
	return bearerKey(request.headers) || request.headers.get('api-key')?.trim() || offeredProtocols(request).find((protocol) => protocol.startsWith(BROWSER_KEY_PROTOCOL))?.slice(BROWSER_KEY_PROTOCOL.length) || undefined
}

/**
 * The client's headers that belong to the wire, for the upstream: `OpenAI-Beta` (as a header, or a
 * browser's `openai-beta.<value>` subprotocol, e.g. `realtime-v1` for `realtime=v1`).
 */
export function wireHeaders(request: Request): Record<string, string> {
	const header = request.headers.get('openai-beta')
	if (header) return { 'openai-beta': header }
	const beta = offeredProtocols(request).find((protocol) => protocol.startsWith(BETA_PROTOCOL))?.slice(BETA_PROTOCOL.length)
	return beta ? { 'openai-beta': beta.replace(/-(v\d+)$/, '=$1') } : {}
}

export const isUpgrade = (request: Request) => request.headers.get('upgrade')?.toLowerCase() === 'websocket'

/** Which channels take a session of `kind` for the model: their type has the socket, their mapping names the model. */
export function socketAcceptance(kind: SocketKind, model: string): ChannelAcceptance {
	return { accepts: (channel: RoutableChannel) => servesSocket(channel.type, kind) && mappingServes(channel.modelMapping, model), cacheKey: `socket ${kind}` }
}

const KIND_NAMES: Record<SocketKind, string> = { realtime: 'Realtime', responses: 'Responses WebSocket' }

/**
 * The group the session runs in, once the model is allowed and priced and some channel of that group
 * takes the session. Throws the RelayError that refuses it.
 */
export function sessionGroup(dependencies: Dependencies, relay: RelayServices, caller: RelayCaller, model: string, kind: SocketKind): { group: string; acceptance: ChannelAcceptance } {
	const { options } = dependencies
	if (caller.token.modelLimits && !caller.token.modelLimits.has(model)) throw relayErrors.modelNotAllowed(model)
	const acceptance = socketAcceptance(kind, model)
	const group = resolveGroup(options, caller, model, (candidate, name) => relay.routing.hasModel(candidate, name, acceptance.accepts, acceptance.cacheKey))
	const pinned = caller.pinnedChannelId === undefined ? undefined : relay.routing.channel(caller.pinnedChannelId)
	const served = caller.pinnedChannelId !== undefined ? pinned !== undefined && acceptance.accepts(pinned) : relay.routing.hasModel(group, model, acceptance.accepts, acceptance.cacheKey)
	if (!served) {
		const anyChannel = caller.pinnedChannelId !== undefined ? pinned !== undefined : relay.routing.hasModel(group, model)
		if (!anyChannel) throw caller.pinnedChannelId !== undefined ? relayErrors.noChannel(group, model) : noChannelError(options, relay.routing, caller, group, model)
		throw new RelayError(400, `no channel serving the model ${model} takes ${KIND_NAMES[kind]} sessions (OpenAI and Azure OpenAI channels do)`, 'invalid_request_error', 'endpoint_not_supported')
	}
	if (!resolvePricing(options, model, caller.user.group, group) && !options.get('SelfUseModeEnabled')) throw relayErrors.modelUnpriced(model)
	return { group, acceptance }
}

/** Counts the session against the caller's limits and takes its place in flight; answers what frees it (once). */
export async function admitSession(relay: RelayServices, caller: RelayCaller): Promise<() => void> {
	// A wallet (and a limited token) without quota could not pay for any response: refused now.
	await relay.bodyGate(caller).admitLarge()
	const succeeded = await relay.requestLimits.admit(caller)
	const release = await relay.concurrency.acquire(caller)
	succeeded?.()
	let done = false
	return () => {
		if (done) return
		done = true
		release?.()
	}
}
