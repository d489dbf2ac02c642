/**
 * Fixed-window counters. `hit` counts an attempt and says whether it is still within the limit.
 *
 * The answer may be a promise: the in-memory limiter answers at once, a limiter shared by several
 * nodes (Redis: `INCR` plus `EXPIRE … NX` on the bucket) cannot. Callers therefore always `await`
 * it, and callers build every policy (login, mail, OAuth) from `hit` alone, so a shared limiter only
 * has to provide this one atomic operation. `count` reads a bucket without counting: the relay's
 * success limit checks it before a call and counts (`hit`) only the calls that succeeded.
 */
import type { RedisLink } from './redis'

export interface RateLimiter {
	hit(bucket: string, limit: number, windowSeconds: number): boolean | Promise<boolean>
	/** The hits counted in the bucket's current window (0 when none), without counting one. */
	count?(bucket: string): number | Promise<number>
	/**
	 * Adds `amount` to the bucket (a window of `windowSeconds` starts with its first addition) and
	 * answers its count after that and the seconds until its window ends; `amount` 0 only reads.
	 * The relay's call limits count requests (1) and settled tokens with it.
	 */
	add?(bucket: string, amount: number, windowSeconds: number): WindowCount | Promise<WindowCount>
}

/** A bucket's count in its current window, and the seconds left of that window (0 when none runs). */
export type WindowCount = { count: number; resetInSeconds: number }

/** Past this many buckets, expired ones are swept, at most once per sweep interval. */
const SWEEP_THRESHOLD = 100_000
const SWEEP_INTERVAL_MS = 10_000

export function createMemoryRateLimiter(now: () => number = () => Date.now()): Required<RateLimiter> {
	const windows = new Map<string, { count: number; resetAt: number }>()
	let nextSweepAt = 0
	return {
		hit(bucket, limit, windowSeconds) {
			const time = now()
			// A sweep walks every bucket: doing it on every hit once the map is large would let many
			// live buckets make each request pay for all of them.
			if (windows.size > SWEEP_THRESHOLD && time >= nextSweepAt) {
				nextSweepAt = time + SWEEP_INTERVAL_MS
				for (const [key, entry] of windows) if (entry.resetAt <= time) windows.delete(key)
			}
			const entry = windows.get(bucket)
			if (!entry || entry.resetAt <= time) {
				windows.set(bucket, { count: 1, resetAt: time + windowSeconds * 1000 })
				return limit >= 1
			}
			entry.count++
			return entry.count <= limit
		},
		count(bucket) {
			const entry = windows.get(bucket)
			return entry && entry.resetAt > now() ? entry.count : 0
		},
		add(bucket, amount, windowSeconds) {
			const time = now()
			let entry = windows.get(bucket)
			if (!entry || entry.resetAt <= time) {
				if (amount <= 0) return { count: 0, resetInSeconds: 0 }
				entry = { count: 0, resetAt: time + windowSeconds * 1000 }
				windows.set(bucket, entry)
			}
			entry.count += amount
			return { count: entry.count, resetInSeconds: Math.ceil((entry.resetAt - time) / 1000) }
		},
	}
}

/**
 * One fixed window per bucket counted in Redis (`INCR`, and `EXPIRE` on the first hit, in one
 * script so a crash between the two can never leave a counter without an expiry), so every node
 * shares the limit. When Redis is down or slow the hit is counted by this node's own memory
 * limiter instead: a request is never refused, nor held up, because Redis is.
 */
const COUNT_HIT = "local count = redis.call('INCR', KEYS[1]) if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return count"
/** `add`: the window starts with the bucket's first addition; a bucket only read is never created. */
const ADD = `local amount = tonumber(ARGV[2])
if amount <= 0 then
	local count = tonumber(redis.call('GET', KEYS[1]) or '0')
	local ttl = redis.call('TTL', KEYS[1])
	return {count, ttl > 0 and ttl or 0}
end
local count = redis.call('INCRBY', KEYS[1], amount)
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {count, ttl}`

export function createRedisRateLimiter(redis: RedisLink, fallback = createMemoryRateLimiter()): Required<RateLimiter> {
	const key = (bucket: string) => `${redis.prefix}rate:${bucket}`
	return {
		hit(bucket, limit, windowSeconds) {
			if (!redis.available()) return fallback.hit(bucket, limit, windowSeconds)
			return redis.command((client) => client.send('EVAL', [COUNT_HIT, '1', key(bucket), String(windowSeconds)]))
				.then((count) => Number(count) <= limit, () => fallback.hit(bucket, limit, windowSeconds))
		},
		count(bucket) {
			if (!redis.available()) return fallback.count(bucket)
			return redis.command((client) => client.get(key(bucket)))
				.then((count) => Number(count ?? 0) || 0, () => fallback.count(bucket))
		},
		add(bucket, amount, windowSeconds) {
			if (!redis.available()) return fallback.add(bucket, amount, windowSeconds)
			return redis.command((client) => client.send('EVAL', [ADD, '1', key(bucket), String(windowSeconds), String(amount)]))
				.then((answer) => {
					const [count, ttl] = answer as [number, number]
					return { count: Number(count) || 0, resetInSeconds: Math.max(0, Number(ttl) || 0) }
				}, () => fallback.add(bucket, amount, windowSeconds))
		},
	}
}
