import { describe, expect, test } from 'bun:test'
import { type CandidateChannel, EXPLORATION_SHARE, pickByPolicy, type PolicyState, ROUTING_POLICY } from '@/relay/router/policies'

/** A deterministic state: `random` cycles through the values given, counters count, in-flight, latency and cost from maps. */
function stateWith({ randoms = [0.5], inFlight = {}, latency = {}, cost = {} }: { randoms?: number[]; inFlight?: Record<string, number>; latency?: Record<string, number>; cost?: Record<number, number> } = {}): PolicyState {
	let draw = 0
	const counters = new Map<string, number>()
	return {
		random: () => randoms[draw++ % randoms.length]!,
		next: (name) => {
			const value = counters.get(name) ?? 0
			counters.set(name, value + 1)
			return value
		},
		inFlight: (channelId, keyIndex) => inFlight[`${channelId}:${keyIndex}`] ?? 0,
		latency: (channelId, keyIndex) => latency[`${channelId}:${keyIndex}`],
		cost: (channelId) => cost[channelId],
	}
}

const channel = (id: number, keys: number[], fields: Partial<CandidateChannel> = {}): CandidateChannel => ({ id, priority: 0, weight: 1, multiKeyMode: 'random', keys, ...fields })

describe('routing policies', () => {
	test('weighted takes the highest priority level only, draws a channel by weight, then a key by the channel\'s mode', () => {
		const candidates = [channel(1, [0], { priority: 5, weight: 1 }), channel(2, [0, 1], { priority: 5, weight: 3 }), channel(3, [0], { priority: 1, weight: 100 })]
		const picks = [0.1, 0.3, 0.9].map((ticket) => pickByPolicy(ROUTING_POLICY.weighted, candidates, stateWith({ randoms: [ticket, 0] }), 'default/m'))
		expect(picks.map((pick) => pick.channelId)).toEqual([1, 2, 2])
	})

	test('a polling channel hands out its keys in turn; a random one draws them', () => {
		const polling = [channel(1, [2, 5, 9], { multiKeyMode: 'polling' })]
		const state = stateWith()
		expect(Array.from({ length: 4 }, () => pickByPolicy(ROUTING_POLICY.weighted, polling, state, 'r').keyIndex)).toEqual([2, 5, 9, 2])
		const random = [channel(1, [2, 5, 9])]
		expect(pickByPolicy(ROUTING_POLICY.weighted, random, stateWith({ randoms: [0.99] }), 'r').keyIndex).toBe(9)
	})

	test('priority takes the first channel in order whatever the weights', () => {
		const candidates = [channel(4, [0], { priority: 9, weight: 1 }), channel(5, [0], { priority: 9, weight: 1000 })]
		expect(pickByPolicy(ROUTING_POLICY.priority, candidates, stateWith({ randoms: [0.99] }), 'r').channelId).toBe(4)
	})

	test('round robin turns through the top level\'s channels', () => {
		const candidates = [channel(1, [0]), channel(2, [0]), channel(3, [0], { priority: -1 })]
		const state = stateWith()
		expect(Array.from({ length: 4 }, () => pickByPolicy(ROUTING_POLICY.roundRobin, candidates, state, 'default/m').channelId)).toEqual([1, 2, 1, 2])
	})

	test('least latency tries unmeasured keys first, then the fastest, exploring one call in ten', () => {
		const candidates = [channel(1, [0, 1]), channel(2, [0])]
		const measured = { '1:0': 900, '1:1': 120, '2:0': 300 }
		const exploit = 1 / EXPLORATION_SHARE
		expect(pickByPolicy(ROUTING_POLICY.leastLatency, candidates, stateWith({ randoms: [exploit], latency: { '1:0': 900, '1:1': 120 } }), 'r')).toEqual({ channelId: 2, keyIndex: 0 })
		expect(pickByPolicy(ROUTING_POLICY.leastLatency, candidates, stateWith({ randoms: [exploit], latency: measured }), 'r')).toEqual({ channelId: 1, keyIndex: 1 })
		expect(pickByPolicy(ROUTING_POLICY.leastLatency, candidates, stateWith({ randoms: [0, 0], latency: measured }), 'r')).toEqual({ channelId: 1, keyIndex: 0 })
	})

	test('least busy takes the key with fewest calls in flight', () => {
		const candidates = [channel(1, [0, 1]), channel(2, [3])]
		expect(pickByPolicy(ROUTING_POLICY.leastBusy, candidates, stateWith({ inFlight: { '1:0': 4, '1:1': 2, '2:3': 3 } }), 'r')).toEqual({ channelId: 1, keyIndex: 1 })
	})

	test('least cost takes the cheapest channel of the top level, whatever the weights, and a key by its mode', () => {
		const candidates = [channel(1, [0], { weight: 100 }), channel(2, [4, 7], { multiKeyMode: 'polling' }), channel(3, [0], { weight: 100 })]
		const state = stateWith({ randoms: [0.99], cost: { 1: 30, 2: 10, 3: 20 } })
		expect(Array.from({ length: 3 }, () => pickByPolicy(ROUTING_POLICY.leastCost, candidates, state, 'r'))).toEqual([
			{ channelId: 2, keyIndex: 4 }, { channelId: 2, keyIndex: 7 }, { channelId: 2, keyIndex: 4 },
		])
	})

	test('least cost stays in the highest priority level, as least latency does: a cheaper channel below it waits for the level to be spent', () => {
		const candidates = [channel(1, [0], { priority: 5 }), channel(2, [0], { priority: 5 }), channel(3, [0], { priority: 0 })]
		const cost = { 1: 9, 2: 8, 3: 1 }
		expect(pickByPolicy(ROUTING_POLICY.leastCost, candidates, stateWith({ cost }), 'r').channelId).toBe(2)
		// After channel 2 failed the router offers the rest: the level's other channel goes next, then the lower level.
		expect(pickByPolicy(ROUTING_POLICY.leastCost, [candidates[0]!, candidates[2]!], stateWith({ cost }), 'r').channelId).toBe(1)
		expect(pickByPolicy(ROUTING_POLICY.leastCost, [candidates[2]!], stateWith({ cost }), 'r').channelId).toBe(3)
	})

	test('least cost draws among equally cheap channels by weight, and puts channels of unknown cost last', () => {
		const candidates = [channel(1, [0], { weight: 1 }), channel(2, [0], { weight: 3 }), channel(3, [0], { weight: 1000 })]
		const cost = { 1: 5, 2: 5 }
		const picks = [0.1, 0.3, 0.9].map((ticket) => pickByPolicy(ROUTING_POLICY.leastCost, candidates, stateWith({ randoms: [ticket, 0], cost }), 'r').channelId)
		expect(picks).toEqual([1, 2, 2])
		// None known: as weighted.
		expect(pickByPolicy(ROUTING_POLICY.leastCost, candidates, stateWith({ randoms: [0.5] }), 'r').channelId).toBe(3)
		// A free channel is the cheapest, not an unknown one.
		expect(pickByPolicy(ROUTING_POLICY.leastCost, candidates, stateWith({ cost: { 3: 1, 1: 0 } }), 'r').channelId).toBe(1)
	})
})
