/**
 * Fixed-window counters kept in memory. `hit` counts an attempt and says whether it is still
 * within the limit. (Shared limits across nodes through Redis arrive with scale-out.)
 */
export interface RateLimiter {
	hit(bucket: string, limit: number, windowSeconds: number): boolean
}

export function createMemoryRateLimiter(now: () => number = () => Date.now()): RateLimiter {
	const windows = new Map<string, { count: number; resetAt: number }>()
	return {
		hit(bucket, limit, windowSeconds) {
			const time = now()
			if (windows.size > 100_000) for (const [key, entry] of windows) if (entry.resetAt <= time) windows.delete(key)
			const entry = windows.get(bucket)
			if (!entry || entry.resetAt <= time) {
				windows.set(bucket, { count: 1, resetAt: time + windowSeconds * 1000 })
				return limit >= 1
			}
			entry.count++
			return entry.count <= limit
		},
	}
}
