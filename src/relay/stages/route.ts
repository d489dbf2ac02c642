/**
 * The route stage: where a call's next attempt goes, as a channel and one of its keys (a
 * single-key channel's key is `#0`). `Router.route(call, tried, hints)` answers a target the call
 * has not been sent to yet, or undefined when none is left; the send stage asks it before each
 * attempt, saying which channel's other keys to try first after a failure (`stayOn`) and which key
 * the call's session was last served by (`session`). The router (src/relay/router/key-router.ts)
 * is the one place a choice of upstream is made: per-key health, a session's affinity and a
 * group's routing policy are read there, and the other stages do not change with them.
 */
import type { KeyTarget } from '@/lib/session-affinity'
import type { RoutableChannel } from '../routing/routing-table'
import type { AdmittedCall } from './call'

/** Where an attempt is sent: a channel and one of its keys, decrypted (memory only). */
export interface RouteTarget {
	channel: RoutableChannel
	keyIndex: number
	key: string
}

/** What routing reads of a call. */
export type RoutedCall = Pick<AdmittedCall, 'caller' | 'group' | 'model' | 'preferredChannelId' | 'preferredKeyIndex' | 'acceptance'>

export interface RouteHints {
	/** After a failure that says nothing of the request: this channel's other keys go first. */
	stayOn?: number
	/** The key the call's session was last served by (first attempt only). */
	session?: KeyTarget
}

export interface Router {
	/** The next target for the call, never one of `tried`; undefined when none is left. */
	route(call: RoutedCall, tried: readonly RouteTarget[], hints?: RouteHints): RouteTarget | undefined
}

export const keyTargetOf = (target: RouteTarget): KeyTarget => ({ channelId: target.channel.id, keyIndex: target.keyIndex })

/** The target's channel as the upstream is opened with it: carrying the chosen key. */
export const keyedChannel = (target: RouteTarget): RoutableChannel => target.key === target.channel.key ? target.channel : { ...target.channel, key: target.key }
