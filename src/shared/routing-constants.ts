/** Routing policies and affinity bounds: zod-free, for the console's pages (`routing.ts` re-exports them). */

export const ROUTING_POLICY = {
	weighted: 'weighted',
	priority: 'priority',
	roundRobin: 'round_robin',
	leastLatency: 'least_latency',
	leastBusy: 'least_busy',
	leastCost: 'least_cost',
} as const
export type RoutingPolicy = (typeof ROUTING_POLICY)[keyof typeof ROUTING_POLICY]
export const ROUTING_POLICIES = Object.values(ROUTING_POLICY)

/** The most rules the super admin may set. */
export const AFFINITY_RULES_MAX = 100

export const AFFINITY_TTL_SECONDS_DEFAULT = 3_600
export const AFFINITY_TTL_SECONDS_MAX = 7 * 24 * 3_600
export const AFFINITY_MAX_ENTRIES_DEFAULT = 100_000
export const AFFINITY_MAX_ENTRIES_MAX = 10_000_000
