/**
 * The Redis link's circuit breaker. A Redis that keeps its connections but does not answer (hung,
 * paused, swapping) would make every command wait out REDIS_COMMAND_TIMEOUT_MS, and a relay call
 * makes two or three. After REDIS_BREAKER_TIMEOUTS timeouts in a row the breaker opens: commands
 * are refused at once for REDIS_BREAKER_COOL_DOWN_MS, so callers take their Redis-less path without
 * waiting. Then it is half-open: one command goes through as a probe while the others are still
 * refused; an answer closes the breaker, another timeout opens it for a new cool-down.
 */
import type { Logger } from './logger'

export const REDIS_BREAKER_TIMEOUTS = 3
export const REDIS_BREAKER_COOL_DOWN_MS = 2_000

export type RedisBreakerState = 'closed' | 'open' | 'half-open'

export interface RedisBreaker {
	state(): RedisBreakerState
	/** Whether a command may go to Redis now; in the half-open state the one admitted is the probe. */
	admit(): boolean
	/** Redis answered (a reply or a reply error: either way it is alive). */
	answered(): void
	timedOut(): void
	/** The command ended another way (the connection dropped): only a probe's turn is given back. */
	failed(): void
	/** A fresh connection: forget past timeouts. */
	reset(): void
}

export function createRedisBreaker(logger: Logger, now: () => number = Date.now): RedisBreaker {
	let timeouts = 0
	let openUntil = 0
	let probing = false

	const tripped = () => timeouts >= REDIS_BREAKER_TIMEOUTS
	return {
		state: () => !tripped() ? 'closed' : probing || now() < openUntil ? 'open' : 'half-open',
		admit() {
			if (!tripped()) return true
			if (probing || now() < openUntil) return false
			probing = true
			return true
		},
		answered() {
			if (tripped()) logger.info('Redis answers again: rate limits and change notices are shared between nodes once more')
			probing = false
			timeouts = 0
		},
		timedOut() {
			probing = false
			timeouts += 1
			if (!tripped()) return
			if (timeouts === REDIS_BREAKER_TIMEOUTS) {
				logger.warn(`Redis did not answer ${timeouts} commands in a row: it is asked again every ${REDIS_BREAKER_COOL_DOWN_MS / 1000} s, and meanwhile rate limits count per node and changes reach other nodes through the database`)
			}
			openUntil = now() + REDIS_BREAKER_COOL_DOWN_MS
		},
		failed() {
			probing = false
		},
		reset() {
			probing = false
			timeouts = 0
		},
	}
}
