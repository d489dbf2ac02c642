/**
 * Request rate limits per user, as new-api's operators know them: with
 * `ModelRequestRateLimitEnabled`, a user makes at most `ModelRequestRateLimitCount` calls (0: no
 * limit) and `ModelRequestRateLimitSuccessCount` successful ones (0: no limit) in each window of
 * `ModelRequestRateLimitDurationMinutes`. `ModelRequestRateLimitGroup` (`{group: [total, success]}`)
 * replaces both for callers in a group: the token's group when it has one, else the user's.
 *
 * Every call an authenticated caller makes counts toward the total, refused ones included: relayed
 * calls (respond.ts), `/mj` and `/suno` submits (tasks/routes.ts) and the free token counts
 * (`/v1/messages/count_tokens`, `/v1/responses/input_tokens`). A call counts as successful once it
 * is answered (a whole answer, a stream that started, a task the upstream took). The
 * success limit is read before the call and counted after it, so calls running at the same moment
 * may together pass it by the number in flight, as in new-api.
 *
 * The counters are the app's rate limiter: in Redis when `REDIS_URL` is set, so every node shares
 * them (the same atomic `INCR`/`EXPIRE` script as the login limits), in this node's memory otherwise
 * or while Redis is unreachable. Each window starts at the user's first call in it.
 */
import { withValues } from '@shared/messages'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import type { OptionStore } from '@/db/stores/options'
import type { RateLimiter } from '@/lib/rate-limiter'
import { wordedRelayError } from '../errors'
import type { RelayCaller } from '../caller'

const SECONDS_PER_MINUTE = 60

export interface RequestLimits {
	/**
	 * Counts the call; throws a 429 RelayError when the caller is over a limit. Answers what to call
	 * once the call has succeeded, when successes are counted.
	 */
	admit(caller: RelayCaller): Promise<(() => void) | undefined>
}

/** Worded for the playground in the console's language; API clients read the English. */
function tooMany(limit: number, counted: 'all' | 'successful', minutes: number) {
	const all = counted === 'all'
	const message = minutes === 1
		? withValues(all ? RELAY_MESSAGES.requestLimitMinute : RELAY_MESSAGES.successLimitMinute, { limit })
		: withValues(all ? RELAY_MESSAGES.requestLimitMinutes : RELAY_MESSAGES.successLimitMinutes, { limit, minutes })
	return wordedRelayError(429, message, 'rate_limit_error', 'rate_limit_exceeded')
}

export function createRequestLimits(options: OptionStore, limiter: RateLimiter): RequestLimits {
	return {
		async admit(caller) {
			if (!options.get('ModelRequestRateLimitEnabled')) return undefined
			const minutes = options.get('ModelRequestRateLimitDurationMinutes')
			const windowSeconds = minutes * SECONDS_PER_MINUTE
			const group = caller.token.group || caller.user.group
			const [total, success] = options.get('ModelRequestRateLimitGroup')[group]
				?? [options.get('ModelRequestRateLimitCount'), options.get('ModelRequestRateLimitSuccessCount')]
			// The window's length is part of the bucket, so a changed duration starts fresh counters.
			const bucket = (kind: string) => `model-request:${kind}:${minutes}:${caller.user.id}`
			if (total > 0 && !await limiter.hit(bucket('total'), total, windowSeconds)) throw tooMany(total, 'all', minutes)
			if (success <= 0) return undefined
			const successes = bucket('success')
			// A limiter that cannot read a count (a test double) never refuses on successes.
			if ((await limiter.count?.(successes) ?? 0) >= success) throw tooMany(success, 'successful', minutes)
			return () => {
				void Promise.resolve(limiter.hit(successes, success, windowSeconds)).catch(() => {})
			}
		},
	}
}
