/**
 * Tells in-process caches that a kind of record changed (the routing table listens for
 * `channels`, token and user caches for `tokens` and `users`, the key router for `health` — a key
 * started cooling — and `affinity` — every session was forgotten —, the subscription book for
 * `subscriptions` — a plan was granted or a window reset). Cross-node delivery (Redis pub/sub
 * or a polled version counter, docs/operations/several-nodes.md#what-the-nodes-share) plugs in here.
 */
export const CHANGE_TOPICS = ['channels', 'tokens', 'users', 'options', 'health', 'affinity', 'subscriptions'] as const
export type ChangeTopic = (typeof CHANGE_TOPICS)[number]

/** Where a change was made: on this node, or on another one (learnt through the database). */
type ChangeOrigin = 'local' | 'remote'

export interface ChangeFeed {
	notify(topic: ChangeTopic, origin?: ChangeOrigin): void
	subscribe(topic: ChangeTopic, listener: (origin: ChangeOrigin) => void): () => void
}

export function createChangeFeed(): ChangeFeed {
	const listeners = new Map<ChangeTopic, Set<(origin: ChangeOrigin) => void>>()
	return {
		notify(topic, origin = 'local') {
			for (const listener of listeners.get(topic) ?? []) listener(origin)
		},
		subscribe(topic, listener) {
			const set = listeners.get(topic) ?? new Set()
			set.add(listener)
			listeners.set(topic, set)
			return () => set.delete(listener)
		},
	}
}
