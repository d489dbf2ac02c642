/**
 * The key router: where each attempt of a call goes, as a channel and one of its keys. The route
 * stage (stages/route.ts) asks it; the send stage reports back what each key did (key-health.ts).
 *
 * For an attempt it answers, in this order:
 * 1. the channel a token pins (`sk-KEY-CHANNELID`), alone and once, with a key by the channel's mode;
 * 2. on the first attempt, the session's key (affinity) while it can take the call: its channel is
 *    among those that can, the key is enabled and not cooling down; else the channel keeping the
 *    conversation a Responses call continues, when routing would choose among it;
 * 3. after a failure that says nothing of the request, another key of the same channel
 *    (`stayOn`), never one tried or cooling;
 * 4. else a channel not tried yet, chosen among those that can take the call by the group's
 *    routing policy (policies.ts) from their keys that are not cooling (`least_cost` reads each
 *    channel's cost of the model here);
 * 5. when every remaining key is cooling, the one whose cooldown ends first: a call is never
 *    refused for want of a key while the upstream itself might still answer.
 *
 * Choosing is a lookup in the routing table's cached candidates and a walk of their keys; nothing
 * here waits.
 */
import type { KeyTarget } from '@/lib/session-affinity'
import type { OptionStore } from '@/db/stores/options'
import { referenceCost } from '@/billing/cost'
import { resolvePricing } from '@/billing/price'
import { ROUTING_POLICY, type RoutingPolicy } from '@shared/routing'
import type { RoutableChannel, RoutingTable } from '../routing/routing-table'
import type { RouteHints, RoutedCall, Router, RouteTarget } from '../stages/route'
import type { KeyHealth } from './key-health'
import { type CandidateChannel, pickByPolicy, type PolicyState } from './policies'

/** The most counters the policies keep (round robin and polling turns); past it they start again. */
const MAX_COUNTERS = 100_000

function policyState(health: KeyHealth): PolicyState {
	const counters = new Map<string, number>()
	return {
		random: Math.random,
		next(name) {
			const value = counters.get(name) ?? 0
			if (counters.size >= MAX_COUNTERS && value === 0) counters.clear()
			counters.set(name, value + 1)
			return value
		},
		inFlight: (channelId, keyIndex) => health.inFlight({ channelId, keyIndex }),
		latency: (channelId, keyIndex) => health.latency({ channelId, keyIndex }),
		cost: () => undefined,
	}
}

const targetOf = (channel: RoutableChannel, keyIndex: number): RouteTarget => ({ channel, keyIndex, key: channel.keys.find((key) => key.index === keyIndex)!.key })

const wasTried = (tried: readonly RouteTarget[], channelId: number, keyIndex: number) =>
	tried.some((attempt) => attempt.channel.id === channelId && attempt.keyIndex === keyIndex)

export function keyRouter(routing: RoutingTable, health: KeyHealth, options: OptionStore): Router {
	const state = policyState(health)
	const cooling = (channelId: number, keyIndex: number) => health.coolingUntil({ channelId, keyIndex }) > 0
	/** A channel's key indexes, kept as long as its key list is the same list (the table rebuilds it on change). */
	const indexesOf = new WeakMap<readonly { index: number }[], readonly number[]>()

	/** The keys of a channel that may take an attempt now: not tried, not cooling. */
	function usableKeys(channel: RoutableChannel, tried: readonly RouteTarget[]): readonly number[] {
		if (tried.length === 0 && !health.anyCooling()) {
			let indexes = indexesOf.get(channel.keys)
			if (!indexes) {
				indexes = channel.keys.map((key) => key.index)
				indexesOf.set(channel.keys, indexes)
			}
			return indexes
		}
		return channel.keys.filter((key) => !cooling(channel.id, key.index) && !wasTried(tried, channel.id, key.index)).map((key) => key.index)
	}

	/** A key of one channel by its own mode (the policy's key choice for a single channel). */
	function keyOfChannel(channel: RoutableChannel, keys: readonly number[]): RouteTarget {
		const pick = pickByPolicy(ROUTING_POLICY.weighted, [{ id: channel.id, priority: channel.priority, weight: channel.weight, multiKeyMode: channel.multiKeyMode, keys }], state, '')
		return targetOf(channel, pick.keyIndex)
	}

	/** The untried key of these channels whose cooldown ends first. */
	function leastCooling(channels: readonly RoutableChannel[], tried: readonly RouteTarget[]): RouteTarget | undefined {
		let best: { channel: RoutableChannel; keyIndex: number; until: number } | undefined
		for (const channel of channels) {
			for (const key of channel.keys) {
				if (wasTried(tried, channel.id, key.index)) continue
				const until = health.coolingUntil({ channelId: channel.id, keyIndex: key.index })
				if (!best || until < best.until) best = { channel, keyIndex: key.index, until }
			}
		}
		return best && targetOf(best.channel, best.keyIndex)
	}

	/** The first attempts of calls while nothing cools all see the same choices: kept per candidate list. */
	const unhinderedChoices = new WeakMap<readonly RoutableChannel[], CandidateChannel[]>()

	function choicesAmong(channels: readonly RoutableChannel[], tried: readonly RouteTarget[]): CandidateChannel[] {
		const unhindered = tried.length === 0 && !health.anyCooling()
		if (unhindered) {
			const kept = unhinderedChoices.get(channels)
			if (kept) return kept
		}
		const choices: CandidateChannel[] = []
		for (const channel of channels) {
			const keys = usableKeys(channel, tried)
			if (keys.length > 0) choices.push({ id: channel.id, priority: channel.priority, weight: channel.weight, multiKeyMode: channel.multiKeyMode, keys })
		}
		if (unhindered) unhinderedChoices.set(channels, choices)
		return choices
	}

	function policyOf(group: string): RoutingPolicy {
		return options.get('GroupRoutingPolicy')[group] ?? ROUTING_POLICY.weighted
	}

	/** The state `least_cost` reads: each channel's cost of a reference call of the model (billing/cost.ts), at the model's list price. */
	function costState(call: RoutedCall, channels: readonly RoutableChannel[]): PolicyState {
		const pricing = resolvePricing(options, call.model, call.caller.user.group, call.group)
		const quotaPerUnit = options.get('QuotaPerUnit')
		return {
			...state,
			cost(channelId) {
				const channel = channels.find((candidate) => candidate.id === channelId)
				return channel && referenceCost(channel.cost, call.model, pricing, quotaPerUnit)
			},
		}
	}

	return {
		route(call: RoutedCall, tried: readonly RouteTarget[], { stayOn, session }: RouteHints = {}) {
			const pinnedId = call.caller.pinnedChannelId
			if (pinnedId !== undefined) {
				const pinned = routing.channel(pinnedId)
				if (!pinned || tried.length > 0) return undefined
				const keys = usableKeys(pinned, tried)
				// A call about something one key of the pinned channel keeps (a video's remix) names that key.
				if (call.preferredChannelId === pinnedId && call.preferredKeyIndex !== undefined && keys.includes(call.preferredKeyIndex)) return targetOf(pinned, call.preferredKeyIndex)
				return keys.length > 0 ? keyOfChannel(pinned, keys) : leastCooling([pinned], tried)
			}
			const { group, model, acceptance } = call
			const candidates = routing.candidates(group, model, acceptance.accepts, acceptance.cacheKey)
			if (tried.length === 0) {
				if (session) {
					const channel = candidates.find((candidate) => candidate.id === session.channelId)
					if (channel?.keys.some((key) => key.index === session.keyIndex) && !cooling(channel.id, session.keyIndex)) return targetOf(channel, session.keyIndex)
				}
				if (call.preferredChannelId !== undefined) {
					const preferred = candidates.find((candidate) => candidate.id === call.preferredChannelId)
					const keys = preferred ? usableKeys(preferred, tried) : []
					if (preferred && call.preferredKeyIndex !== undefined && keys.includes(call.preferredKeyIndex)) return targetOf(preferred, call.preferredKeyIndex)
					if (preferred && keys.length > 0) return keyOfChannel(preferred, keys)
				}
			}
			if (stayOn !== undefined) {
				const channel = candidates.find((candidate) => candidate.id === stayOn)
				const keys = channel ? usableKeys(channel, tried) : []
				if (channel && keys.length > 0) return keyOfChannel(channel, keys)
			}
			const untried = tried.length === 0 ? candidates : candidates.filter((channel) => !tried.some((attempt) => attempt.channel.id === channel.id))
			const choices = choicesAmong(untried, tried)
			if (choices.length === 0) return leastCooling(untried, tried)
			const policy = policyOf(group)
			const pick = pickByPolicy(policy, choices, policy === ROUTING_POLICY.leastCost ? costState(call, untried) : state, `${group}\u0000${model}`)
			return targetOf(untried.find((channel) => channel.id === pick.channelId)!, pick.keyIndex)
		},
	}
}
