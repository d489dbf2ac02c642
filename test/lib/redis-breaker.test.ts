/** The Redis link's circuit breaker on its own, with a clock the test moves. */
import { describe, expect, test } from 'bun:test'
import { silentLogger } from '@/lib/logger'
import { createRedisBreaker, REDIS_BREAKER_COOL_DOWN_MS, REDIS_BREAKER_TIMEOUTS } from '@/lib/redis-breaker'

function breakerAt(start = 1_000_000) {
	let time = start
	const breaker = createRedisBreaker(silentLogger, () => time)
	const timeOutAll = () => {
		for (let index = 0; index < REDIS_BREAKER_TIMEOUTS; index++) {
			expect(breaker.admit()).toBe(true)
			breaker.timedOut()
		}
	}
	return { breaker, timeOutAll, wait: (milliseconds: number) => { time += milliseconds } }
}

describe('the Redis breaker', () => {
	test('stays closed through fewer timeouts in a row than its limit, and an answer starts the count again', () => {
		const { breaker } = breakerAt()
		for (let round = 0; round < 3; round++) {
			for (let index = 0; index < REDIS_BREAKER_TIMEOUTS - 1; index++) {
				expect(breaker.admit()).toBe(true)
				breaker.timedOut()
			}
			expect(breaker.admit()).toBe(true)
			breaker.answered()
			expect(breaker.state()).toBe('closed')
		}
	})

	test('opens after the limit and refuses every command until the cool-down is over', () => {
		const { breaker, timeOutAll, wait } = breakerAt()
		timeOutAll()
		expect(breaker.state()).toBe('open')
		for (let index = 0; index < 100; index++) expect(breaker.admit()).toBe(false)
		wait(REDIS_BREAKER_COOL_DOWN_MS - 1)
		expect(breaker.admit()).toBe(false)
		wait(1)
		expect(breaker.state()).toBe('half-open')
	})

	test('half-open, it lets one probe through at a time: an answer closes it, a timeout opens it for another cool-down', () => {
		const { breaker, timeOutAll, wait } = breakerAt()
		timeOutAll()
		wait(REDIS_BREAKER_COOL_DOWN_MS)
		expect(breaker.admit()).toBe(true)
		expect(breaker.admit()).toBe(false)
		breaker.timedOut()
		expect(breaker.state()).toBe('open')
		expect(breaker.admit()).toBe(false)
		wait(REDIS_BREAKER_COOL_DOWN_MS)
		expect(breaker.admit()).toBe(true)
		breaker.failed()
		// A probe lost to a dropped connection gives its turn back.
		expect(breaker.admit()).toBe(true)
		breaker.answered()
		expect(breaker.state()).toBe('closed')
		expect(breaker.admit()).toBe(true)
	})
})
