/**
 * Session affinity: which `{channel, key}` a session (src/relay/router/session-key.ts) was last served by, so that
 * its next turn goes to the key whose prompt cache holds its conversation. Entries live
 * `AffinityTTLSeconds` from their last use (each hit renews them) and at most `AffinityMaxEntries`
 * are kept on a node (the least recently used go first).
 *
 * With Redis every node reads and writes the same entries (`<prefix>affinity:<session>`), so a
 * session keeps its key whichever node takes the call; while Redis is down or resting (its
 * breaker), or without it, each node keeps its own in memory. Affinity is a preference: losing an
 * entry only costs one turn's cache.
 */
import { createHash } from 'node:crypto'
import type { RedisLink } from '@/lib/redis'

/**
 * The name of a session in the store: a hash of the session value with the user and the model, so
 * that one user's session can never name, or land on, another's, and the value itself is never kept.
 */
export function sessionId(userId: number, model: string, value: string): string {
	return createHash('sha256').update(`${userId}\u0000${model}\u0000${value}`).digest('base64url').slice(0, 22)
}

/** Where a call goes: a channel and one of its keys (`#index`; 0 for a single-key channel). */
export interface KeyTarget {
	channelId: number
	keyIndex: number
}

export interface AffinitySettings {
	ttlSeconds: number
	maxEntries: number
}

export interface AffinityStore {
	/** The session's target, renewing its lifetime; undefined when it has none (or it expired). */
	get(session: string): Promise<KeyTarget | undefined>
	/** Pins the session to a target (not waited for: a lost write costs one turn's cache). */
	set(session: string, target: KeyTarget): void
	/** Forgets one session, or every session; answers how many were forgotten (on this node, or in Redis). */
	purge(session?: string): Promise<number>
	/** Forgets what this node keeps in memory (told that another node purged every session). */
	forgetLocal(): void
}

const encode = ({ channelId, keyIndex }: KeyTarget) => `${channelId}:${keyIndex}`

function decode(text: string | null | undefined): KeyTarget | undefined {
	const [channel, key] = (text ?? '').split(':')
	const channelId = Number(channel)
	const keyIndex = Number(key)
	return Number.isSafeInteger(channelId) && channelId > 0 && Number.isSafeInteger(keyIndex) && keyIndex >= 0 ? { channelId, keyIndex } : undefined
}

/** One node's entries: a Map in least-recently-used order (an entry used is moved to the end). */
export function createMemoryAffinity(settings: () => AffinitySettings, now: () => number = Date.now): AffinityStore {
	const entries = new Map<string, { target: KeyTarget; expiresAt: number }>()
	return {
		async get(session) {
			const entry = entries.get(session)
			if (!entry) return undefined
			entries.delete(session)
			const time = now()
			if (entry.expiresAt <= time) return undefined
			entry.expiresAt = time + settings().ttlSeconds * 1000
			entries.set(session, entry)
			return entry.target
		},
		set(session, target) {
			const { ttlSeconds, maxEntries } = settings()
			entries.delete(session)
			entries.set(session, { target, expiresAt: now() + ttlSeconds * 1000 })
			for (const oldest of entries.keys()) {
				if (entries.size <= maxEntries) break
				entries.delete(oldest)
			}
		},
		async purge(session) {
			if (session !== undefined) return entries.delete(session) ? 1 : 0
			const count = entries.size
			entries.clear()
			return count
		},
		forgetLocal: () => entries.clear(),
	}
}

/** The most keys one purge deletes per round trip. */
const PURGE_BATCH = 500

/** Entries shared through Redis, falling back to this node's memory while Redis cannot be asked. */
export function createRedisAffinity(redis: RedisLink, settings: () => AffinitySettings, fallback = createMemoryAffinity(settings)): AffinityStore {
	const key = (session: string) => `${redis.prefix}affinity:${session}`
	return {
		async get(session) {
			if (!redis.available()) return fallback.get(session)
			try {
				const value = await redis.command((client) => client.send('GETEX', [key(session), 'EX', String(settings().ttlSeconds)]))
				return decode(value as string | null)
			} catch {
				return fallback.get(session)
			}
		},
		set(session, target) {
			fallback.set(session, target)
			if (!redis.available()) return
			void redis.command((client) => client.send('SET', [key(session), encode(target), 'EX', String(settings().ttlSeconds)])).catch(() => {})
		},
		async purge(session) {
			const local = await fallback.purge(session)
			if (!redis.available()) return local
			if (session !== undefined) return redis.command((client) => client.del(key(session))).then(Number, () => local)
			let cursor = '0'
			let deleted = 0
			do {
				const [next, keys] = await redis.command((client) => client.send('SCAN', [cursor, 'MATCH', key('*'), 'COUNT', String(PURGE_BATCH)])) as [string, string[]]
				cursor = next
				if (keys.length > 0) deleted += Number(await redis.command((client) => client.send('DEL', keys)))
			} while (cursor !== '0')
			return deleted
		},
		forgetLocal: () => fallback.forgetLocal(),
	}
}
