/**
 * Limits on calls in flight at once (`concurrency_limit` of a token or a user, `concurrency` of a
 * group or a model: the same subjects as the request limits, request-limits.ts). A call past any
 * of them is refused with a 429 in the caller's format before anything is held, and a call stops
 * counting when its answer has been sent (a stream, when it ends). With Redis the counts are
 * shared by every node (`<prefix>inflight:<subject>`, each dropped should a node die holding it,
 * ten minutes after its last change); while Redis cannot be asked, or without it, each node counts
 * its own calls.
 */
import { nested, withValues } from '@shared/messages'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import type { OptionStore } from '@/db/stores/options'
import type { RedisLink } from '@/lib/redis'
import { wordedRelayError } from '../errors'
import type { RelayCaller } from '../caller'
import { limitSubjects, type LimitSubject } from './request-limits'

/** A shared count is dropped this long after its last change, so a node that died holding calls frees them. */
const SHARED_COUNT_TTL_SECONDS = 600

export interface ConcurrencyLimits {
	/** Counts a call in flight; throws a 429 RelayError past a limit. Answers what ends the count (once), or undefined without a limit. */
	acquire(caller: RelayCaller, model?: string): Promise<(() => void) | undefined>
}

const overLimit = (subject: LimitSubject) => wordedRelayError(429, withValues(RELAY_MESSAGES.concurrencyExceeded, {
	level: nested(subject.level('concurrency')), limit: subject.limits.concurrency,
}), 'rate_limit_error', 'concurrency_limit_exceeded')

const once = (release: () => void) => {
	let done = false
	return () => {
		if (done) return
		done = true
		release()
	}
}

/**
 * Counts the call for every key at once: past any key's limit it takes every count back and
 * answers that key's position (1-based), else 0.
 */
const ACQUIRE = `for index, key in ipairs(KEYS) do
	redis.call('INCR', key)
	redis.call('EXPIRE', key, ARGV[1])
end
for index, key in ipairs(KEYS) do
	if tonumber(redis.call('GET', key)) > tonumber(ARGV[index + 1]) then
		for _, taken in ipairs(KEYS) do redis.call('DECR', taken) end
		return index
	end
end
return 0`

export function createConcurrencyLimits(options: OptionStore, redis?: RedisLink): ConcurrencyLimits {
	const local = new Map<string, number>()
	const releaseLocally = (keys: readonly string[]) => {
		for (const key of keys) {
			const left = (local.get(key) ?? 1) - 1
			if (left <= 0) local.delete(key)
			else local.set(key, left)
		}
	}
	const acquireLocally = (limited: readonly LimitSubject[]) => {
		const over = limited.find((subject) => (local.get(subject.key) ?? 0) >= subject.limits.concurrency)
		if (over) throw overLimit(over)
		const keys = limited.map((subject) => subject.key)
		for (const key of keys) local.set(key, (local.get(key) ?? 0) + 1)
		return once(() => releaseLocally(keys))
	}
	return {
		async acquire(caller, model) {
			const limited = limitSubjects(options, caller, model).filter((subject) => subject.limits.concurrency > 0)
			if (limited.length === 0) return undefined
			if (!redis?.available()) return acquireLocally(limited)
			const keys = limited.map((subject) => `${redis.prefix}inflight:${subject.key}`)
			let over: number
			try {
				over = Number(await redis.command((client) => client.send('EVAL', [
					ACQUIRE, String(keys.length), ...keys, String(SHARED_COUNT_TTL_SECONDS), ...limited.map((subject) => String(subject.limits.concurrency)),
				])))
			} catch {
				return acquireLocally(limited)
			}
			if (over > 0) throw overLimit(limited[over - 1]!)
			return once(() => {
				for (const key of keys) void redis.command((client) => client.decr(key)).catch(() => {})
			})
		},
	}
}
