/**
 * How the router picks one `{channel, key}` among those that can take a call (option
 * `GroupRoutingPolicy`, per group; `weighted` when a group names none):
 *
 * - `weighted`: the highest priority level, a channel drawn by weight, then a key by the channel's
 *   own `multi_key_mode` (`random`, or `polling` in turn);
 * - `priority`: strictly in order (highest priority, then the channels' order), the first channel's key;
 * - `round_robin`: the channels of the highest priority level in turn, then a key by the channel's mode;
 * - `least_latency`: among the keys of the highest priority level, the one with the lowest moving
 *   average of its time to first byte; keys never measured are tried first, and one call in
 *   `EXPLORATION_SHARE` goes to a random key so that a key that got faster is seen again;
 * - `least_busy`: among the keys of the highest priority level, the one with fewest calls in flight
 *   on this node;
 * - `least_cost`: among the channels of the highest priority level, the one whose cost for the
 *   requested model is lowest (`PolicyState.cost`; unknown costs last), equal ones drawn by weight,
 *   then a key by the channel's mode. A failure moves on to the next cheapest of the level, and to
 *   lower levels once the level is spent, as with the other policies.
 *
 * Pure: the caller passes the candidates (each with its usable keys, highest priority first) and
 * what the policies read of the node's state.
 */

import { MULTI_KEY_MODE } from '@shared/channel-constants'
import { ROUTING_POLICY, type RoutingPolicy } from '@shared/routing'

export { ROUTING_POLICY, type RoutingPolicy }


/** One call in this many goes to a random key under `least_latency`. */
export const EXPLORATION_SHARE = 10

export interface CandidateChannel {
	id: number
	priority: number
	weight: number
	multiKeyMode: string
	/** The keys that may take the call now, by `#index`; never empty. */
	keys: readonly number[]
}

export interface PolicyState {
	random(): number
	/** A counter that grows by one on each call with the same name (round robin, polling). */
	next(name: string): number
	/** Calls in flight on a key on this node. */
	inFlight(channelId: number, keyIndex: number): number
	/** The moving average of a key's time to first byte, in milliseconds; undefined when never measured. */
	latency(channelId: number, keyIndex: number): number | undefined
	/** What a channel costs the operator for the call's model, in any unit shared by all channels; undefined when unknown. */
	cost(channelId: number): number | undefined
}

export interface Pick {
	channelId: number
	keyIndex: number
}

function topLevel(candidates: readonly CandidateChannel[]): readonly CandidateChannel[] {
	const top = candidates[0]!.priority
	let end = 1
	while (end < candidates.length && candidates[end]!.priority === top) end++
	return end === candidates.length ? candidates : candidates.slice(0, end)
}

function byWeight(level: readonly CandidateChannel[], random: () => number): CandidateChannel {
	if (level.length === 1) return level[0]!
	const total = level.reduce((sum, channel) => sum + Math.max(0, channel.weight), 0)
	if (total === 0) return level[Math.floor(random() * level.length)]!
	let ticket = random() * total
	for (const channel of level) {
		ticket -= Math.max(0, channel.weight)
		if (ticket < 0) return channel
	}
	return level[level.length - 1]!
}

/** A key of the channel by its own mode. */
function keyOf(channel: CandidateChannel, state: PolicyState): Pick {
	const { keys } = channel
	const at = keys.length === 1 ? 0
		: channel.multiKeyMode === MULTI_KEY_MODE.polling ? state.next(`poll ${channel.id}`) % keys.length
			: Math.floor(state.random() * keys.length)
	return { channelId: channel.id, keyIndex: keys[at]! }
}

function allKeys(level: readonly CandidateChannel[]): Pick[] {
	return level.flatMap((channel) => channel.keys.map((keyIndex) => ({ channelId: channel.id, keyIndex })))
}

/** The pick among `keys` with the lowest `score`, ties broken at random. */
function lowest(keys: readonly Pick[], score: (pick: Pick) => number, random: () => number): Pick {
	let best: Pick[] = []
	let bestScore = Number.POSITIVE_INFINITY
	for (const pick of keys) {
		const value = score(pick)
		if (value < bestScore) {
			bestScore = value
			best = [pick]
		} else if (value === bestScore) best.push(pick)
	}
	return best[Math.floor(random() * best.length)]!
}

/** The channels of `level` with the lowest known cost; all of them when none is known. */
function cheapest(level: readonly CandidateChannel[], cost: (channelId: number) => number | undefined): CandidateChannel[] {
	let best: CandidateChannel[] = []
	let bestCost = Number.POSITIVE_INFINITY
	for (const channel of level) {
		const value = cost(channel.id) ?? Number.POSITIVE_INFINITY
		if (value < bestCost || best.length === 0) {
			bestCost = value
			best = [channel]
		} else if (value === bestCost) best.push(channel)
	}
	return best
}

/** The pick for a call; `candidates` is not empty and is ordered highest priority first. */
export function pickByPolicy(policy: RoutingPolicy, candidates: readonly CandidateChannel[], state: PolicyState, routeName: string): Pick {
	switch (policy) {
		case ROUTING_POLICY.priority:
			return keyOf(candidates[0]!, state)
		case ROUTING_POLICY.roundRobin: {
			const level = topLevel(candidates)
			return keyOf(level[state.next(`round ${routeName}`) % level.length]!, state)
		}
		case ROUTING_POLICY.leastLatency: {
			const keys = allKeys(topLevel(candidates))
			if (keys.length > 1 && Math.floor(state.random() * EXPLORATION_SHARE) === 0) return keys[Math.floor(state.random() * keys.length)]!
			return lowest(keys, (pick) => state.latency(pick.channelId, pick.keyIndex) ?? -1, state.random)
		}
		case ROUTING_POLICY.leastBusy:
			return lowest(allKeys(topLevel(candidates)), (pick) => state.inFlight(pick.channelId, pick.keyIndex), state.random)
		case ROUTING_POLICY.leastCost:
			return keyOf(byWeight(cheapest(topLevel(candidates), state.cost), state.random), state)
		default:
			return keyOf(byWeight(topLevel(candidates), state.random), state)
	}
}
