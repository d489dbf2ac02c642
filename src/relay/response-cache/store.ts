/**
 * Where the response cache keeps its answers: in Redis when it is configured (every node answers
 * from the same entries), else in this process's memory. Either way at most `maxBytes` of entries
 * are kept — the oldest go first — and each lives `ttlSeconds`. Keys are hashes (key.ts); an entry is
 * the answer's own text, never logged. The cache is a saving, never the record: a Redis that cannot
 * be asked is a miss, and a store that fails is forgotten.
 */
import type { RedisLink } from '@/lib/redis'

export interface ResponseCacheStore {
	/** The entry under `key`, or undefined (absent, expired, or the store cannot be asked). */
	get(key: string): Promise<string | undefined>
	/** Keeps `value` for `ttlSeconds`, making room within `maxBytes` (a larger value is not kept). */
	set(key: string, value: string, ttlSeconds: number, maxBytes: number): Promise<void>
	/** Bytes this node's memory holds (0 for Redis, which tells its own). */
	bytes(): number
}

/** An entry's size as counted against the bound: its UTF-16 length, a close bound of its bytes. */
const sizeOf = (value: string) => value.length * 2

/** One node's entries, oldest first (a Map keeps insertion order; a value stored again moves to the end). */
export function createMemoryResponseCache(now: () => number = Date.now): ResponseCacheStore {
	const entries = new Map<string, { value: string; size: number; expiresAt: number }>()
	let total = 0
	const drop = (key: string) => {
		const entry = entries.get(key)
		if (!entry) return
		entries.delete(key)
		total -= entry.size
	}
	return {
		async get(key) {
			const entry = entries.get(key)
			if (!entry) return undefined
			if (entry.expiresAt <= now()) {
				drop(key)
				return undefined
			}
			return entry.value
		},
		async set(key, value, ttlSeconds, maxBytes) {
			drop(key)
			const size = sizeOf(value)
			if (size > maxBytes || ttlSeconds <= 0) return
			const time = now()
			// The oldest entries go first: the expired ones, then as many as make room.
			for (const [oldest, entry] of entries) {
				if (entry.expiresAt > time && total + size <= maxBytes) break
				drop(oldest)
			}
			entries.set(key, { value, size, expiresAt: time + ttlSeconds * 1000 })
			total += size
		},
		bytes: () => total,
	}
}

/**
 * Stores an entry and keeps the bound, in one script: entries expired by their index score go, then
 * the oldest until the new one fits. `<prefix>rcache:index` orders the keys by expiry (all share one
 * lifetime, so by age), `<prefix>rcache:sizes` holds their sizes and `<prefix>rcache:bytes` their sum.
 */
const STORE_SCRIPT = `
local function drop(member)
	local size = tonumber(redis.call('HGET', KEYS[2], member) or '0')
	redis.call('HDEL', KEYS[2], member)
	redis.call('ZREM', KEYS[1], member)
	redis.call('DEL', ARGV[6] .. member)
	redis.call('DECRBY', KEYS[3], size)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do drop(member) end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then drop(ARGV[2]) end
local size = tonumber(ARGV[3])
local max = tonumber(ARGV[5])
if size > max then return 0 end
local total = tonumber(redis.call('GET', KEYS[3]) or '0')
while total + size > max do
	local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
	if not oldest then break end
	drop(oldest)
	total = tonumber(redis.call('GET', KEYS[3]) or '0')
end
redis.call('SET', ARGV[6] .. ARGV[2], ARGV[7], 'PX', ARGV[8])
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], size)
redis.call('INCRBY', KEYS[3], size)
return 1
`

export function createRedisResponseCache(redis: RedisLink, now: () => number = Date.now): ResponseCacheStore {
	const entryPrefix = `${redis.prefix}rcache:entry:`
	const index = `${redis.prefix}rcache:index`
	const sizes = `${redis.prefix}rcache:sizes`
	const total = `${redis.prefix}rcache:bytes`
	return {
		async get(key) {
			if (!redis.available()) return undefined
			try {
				const value = await redis.command((client) => client.get(`${entryPrefix}${key}`))
				return value ?? undefined
			} catch {
				return undefined
			}
		},
		async set(key, value, ttlSeconds, maxBytes) {
			if (!redis.available() || ttlSeconds <= 0) return
			const time = now()
			const ttl = ttlSeconds * 1000
			await redis.command((client) => client.send('EVAL', [
				STORE_SCRIPT, '3', index, sizes, total,
				String(time), key, String(sizeOf(value)), String(time + ttl), String(maxBytes), entryPrefix, value, String(ttl),
			])).catch(() => {})
		},
		bytes: () => 0,
	}
}
