/**
 * The route stage: where a call goes next. `Router.route(call, tried)` answers a target the call
 * has not been sent to yet, or undefined when none is left; the send stage asks it before each
 * attempt. It is the one place a choice of upstream is made, so what decides it — per-key health,
 * a session's affinity, a group's routing policy — plugs in here by replacing the router
 * (RelayServices.router), and the other stages do not change.
 *
 * Today's router (`tableRouter`) chooses a channel from the routing table (routing/routing-table.ts):
 * the channel the key pins, alone; else, on the first attempt, the preferred channel (the one that
 * keeps the conversation a request continues) when it is among the channels the call could go to;
 * else the highest priority among the untried channels that can take the call (their type serves
 * it and their model mapping gives the model a name), weighted random inside that priority. The
 * candidates of a group, model and kind of call are one map lookup once the table has them.
 */
import type { RoutableChannel, RoutingTable } from '../routing/routing-table'
import type { AdmittedCall } from './call'

/** Where an attempt is sent: a channel (a key of it, once channels hold several). */
export interface RouteTarget {
	channel: RoutableChannel
}

/** What routing reads of a call. */
export type RoutedCall = Pick<AdmittedCall, 'caller' | 'group' | 'model' | 'preferredChannelId' | 'acceptance'>

export interface Router {
	/** The next target for the call, never one of `tried`; undefined when none is left. */
	route(call: RoutedCall, tried: readonly RouteTarget[]): RouteTarget | undefined
}

const NONE_TRIED: ReadonlySet<number> = new Set()

export function tableRouter(routing: RoutingTable): Router {
	const target = (channel: RoutableChannel | undefined) => (channel ? { channel } : undefined)
	return {
		route(call, tried) {
			const pinned = call.caller.pinnedChannelId
			if (pinned !== undefined) return tried.length === 0 ? target(routing.channel(pinned)) : undefined
			const { group, model, acceptance } = call
			if (tried.length === 0 && call.preferredChannelId !== undefined) {
				const preferred = routing.offered(group, model, call.preferredChannelId, acceptance)
				if (preferred) return { channel: preferred }
			}
			const triedIds = tried.length === 0 ? NONE_TRIED : new Set(tried.map((attempt) => attempt.channel.id))
			return target(routing.pick(group, model, triedIds, acceptance))
		},
	}
}
