/**
 * A token's limit on calls in flight at once (`tokens.concurrency_limit`; 0 sets none): a call past
 * it is refused with a 429 in the caller's format before anything is held, and a call stops
 * counting when its answer has been sent (a stream, when it ends). With Redis the count is shared
 * by every node (`<prefix>inflight:<token>`, which expires should a node die holding it); while
 * Redis cannot be asked, or without it, each node counts its own calls.
 */
import type { RedisLink } from '@/lib/redis'
import { RelayError } from '../errors'
import type { RelayCaller } from '../caller'

/** A shared count is dropped this long after its last change, so a node that died holding calls frees them. */
const SHARED_COUNT_TTL_SECONDS = 600

export interface ConcurrencyLimits {
	/** Counts a call in flight; throws a 429 RelayError past the token's limit. Answers what ends the count (once), or undefined without a limit. */
	acquire(caller: RelayCaller): Promise<(() => void) | undefined>
}

const overLimit = (limit: number) => new RelayError(429, `too many concurrent requests for this API token: at most ${limit} at once`, 'rate_limit_error', 'concurrency_limit_exceeded')

const once = (release: () => void) => {
	let done = false
	return () => {
		if (done) return
		done = true
		release()
	}
}

export function createConcurrencyLimits(redis?: RedisLink): ConcurrencyLimits {
	const local = new Map<number, number>()
	const acquireLocally = (tokenId: number, limit: number) => {
		const count = local.get(tokenId) ?? 0
		if (count >= limit) throw overLimit(limit)
		local.set(tokenId, count + 1)
		return once(() => {
			const left = (local.get(tokenId) ?? 1) - 1
			if (left <= 0) local.delete(tokenId)
			else local.set(tokenId, left)
		})
	}
	return {
		async acquire({ token }) {
			const limit = token.concurrencyLimit
			if (!limit || limit <= 0) return undefined
			if (!redis?.available()) return acquireLocally(token.id, limit)
			const key = `${redis.prefix}inflight:${token.id}`
			let count: number
			try {
				count = Number(await redis.command((client) => client.send('EVAL', [
					"local count = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], ARGV[1]) return count", '1', key, String(SHARED_COUNT_TTL_SECONDS),
				])))
			} catch {
				return acquireLocally(token.id, limit)
			}
			const release = once(() => void redis.command((client) => client.decr(key)).catch(() => {}))
			if (count > limit) {
				release()
				throw overLimit(limit)
			}
			return release
		},
	}
}
