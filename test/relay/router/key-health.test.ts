import { describe, expect, test } from 'bun:test'
import { BACKOFF_BASE_MS, DEFAULT_COOLDOWN_MS, FAILURES_TO_BACK_OFF, KeyHealth, MAX_COOLDOWN_MS, retryAfterMs, type SharedCooldown } from '@/relay/router/key-health'

const KEY = { channelId: 3, keyIndex: 1 }

function healthAt(start = 1_000_000) {
	let time = start
	const shared: SharedCooldown[] = []
	const health = new KeyHealth((cooldown) => shared.push(cooldown), () => time)
	return { health, shared, advance: (milliseconds: number) => { time += milliseconds }, now: () => time }
}

describe('per-key health', () => {
	test('Retry-After in seconds or as a date cools the key that long; without it, the default; never past the cap', () => {
		const now = Date.parse('2026-11-27T12:00:00Z')
		expect(retryAfterMs('4', now)).toBe(4_000)
		expect(retryAfterMs('Fri, 27 Nov 2026 12:00:30 GMT', now)).toBe(30_000)
		expect(retryAfterMs('soon', now)).toBeUndefined()
		const { health, advance } = healthAt()
		health.rateLimited(KEY, '4')
		expect(health.coolingUntil(KEY)).toBeGreaterThan(0)
		advance(3_999)
		expect(health.coolingUntil(KEY)).toBeGreaterThan(0)
		advance(1)
		expect(health.coolingUntil(KEY)).toBe(0)
		const other = { channelId: 3, keyIndex: 2 }
		const clock = healthAt()
		clock.health.rateLimited(other, null)
		expect(clock.health.coolingUntil(other)).toBe(clock.now() + DEFAULT_COOLDOWN_MS)
		clock.health.rateLimited({ channelId: 9, keyIndex: 0 }, '86400')
		expect(clock.health.coolingUntil({ channelId: 9, keyIndex: 0 })).toBe(clock.now() + MAX_COOLDOWN_MS)
	})

	test('failures cool the key only after several in a row, longer each time, and a success forgets them', () => {
		const { health, advance } = healthAt()
		for (let failure = 1; failure < FAILURES_TO_BACK_OFF; failure++) health.failed(KEY)
		expect(health.coolingUntil(KEY)).toBe(0)
		health.failed(KEY)
		expect(health.coolingUntil(KEY) - (1_000_000)).toBe(BACKOFF_BASE_MS)
		advance(BACKOFF_BASE_MS)
		health.failed(KEY)
		expect(health.coolingUntil(KEY) - (1_000_000 + BACKOFF_BASE_MS)).toBe(2 * BACKOFF_BASE_MS)
		advance(2 * BACKOFF_BASE_MS)
		health.succeeded(KEY)
		health.failed(KEY)
		expect(health.coolingUntil(KEY)).toBe(0)
	})

	test('a cooldown started here is shared, and one from another node applies here', () => {
		const { health, shared, now } = healthAt()
		health.rateLimited(KEY, '10')
		expect(shared).toEqual([{ ...KEY, until: now() + 10_000 }])
		// A shorter one does not shorten it, nor is it shared again.
		health.rateLimited(KEY, '2')
		expect(shared).toHaveLength(1)
		const elsewhere = { channelId: 4, keyIndex: 0 }
		health.applyShared({ ...elsewhere, until: now() + 5_000 })
		expect(health.coolingUntil(elsewhere)).toBe(now() + 5_000)
	})

	test('calls in flight are counted until each is done, once', () => {
		const { health } = healthAt()
		const first = health.started(KEY)
		const second = health.started(KEY)
		expect(health.inFlight(KEY)).toBe(2)
		first()
		first()
		expect(health.inFlight(KEY)).toBe(1)
		second()
		expect(health.inFlight(KEY)).toBe(0)
	})

	test('the first-byte average moves toward new samples', () => {
		const { health } = healthAt()
		expect(health.latency(KEY)).toBeUndefined()
		health.recordFirstByte(KEY, 100)
		health.recordFirstByte(KEY, 600)
		expect(health.latency(KEY)).toBe(200)
	})
})
