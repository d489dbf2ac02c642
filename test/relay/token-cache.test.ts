import { describe, expect, test } from 'bun:test'
import { createChangeFeed } from '@/lib/change-feed'
import { createTokenCache, MAX_UNKNOWN_KEYS, REFRESHES_PER_SECOND } from '@/relay/edge/token-cache'

const MINUTE_MS = 60_000

function setUp() {
	let time = 0
	const changes = createChangeFeed()
	const cache = createTokenCache<string>(changes, () => time)
	let reads = 0
	let current = 'row v1'
	let pending: (() => void) | undefined
	/** Reads answer at once, unless `hold` made them wait for `finishRead`. */
	let hold = false
	const read = () => {
		reads++
		const row = current
		if (!hold) return Promise.resolve(row)
		return new Promise<string>((resolve) => {
			pending = () => resolve(row)
		})
	}
	return {
		cache, changes, read,
		advance: (milliseconds: number) => void (time += milliseconds),
		reads: () => reads,
		setRow: (row: string) => void (current = row),
		holdReads: () => void (hold = true),
		finishRead: () => pending?.(),
	}
}

describe('the token cache', () => {
	test('reads a token once and answers it from memory afterwards', async () => {
		const { cache, read, reads } = setUp()
		expect(await cache.get('digest', read)).toBe('row v1')
		expect(await cache.get('digest', read)).toBe('row v1')
		expect(reads()).toBe(1)
	})

	test('an entry a minute old is answered at once and read again off the call, once however many calls find it', async () => {
		const { cache, read, reads, advance, setRow, holdReads, finishRead } = setUp()
		await cache.get('digest', read)
		setRow('row v2')
		advance(MINUTE_MS + 1)
		holdReads()
		// The database read is still under way: the calls get the row they had, without waiting.
		expect(await cache.get('digest', read)).toBe('row v1')
		expect(await cache.get('digest', read)).toBe('row v1')
		expect(reads()).toBe(2)
		finishRead()
		await Bun.sleep(0)
		expect(await cache.get('digest', read)).toBe('row v2')
		expect(reads()).toBe(2)
	})

	test('a change to tokens drops every entry, and the next call reads the new row before answering', async () => {
		const { cache, changes, read, reads, setRow } = setUp()
		await cache.get('digest', read)
		setRow('row v2')
		changes.notify('tokens', 'local')
		expect(await cache.get('digest', read)).toBe('row v2')
		expect(reads()).toBe(2)
	})

	test('a read that started before a change does not put its old row back', async () => {
		const { cache, changes, read, reads, advance, holdReads, finishRead } = setUp()
		await cache.get('digest', read)
		advance(MINUTE_MS + 1)
		holdReads()
		await cache.get('digest', read)
		changes.notify('users', 'local')
		finishRead()
		await Bun.sleep(0)
		// Nothing was kept from the read that straddled the change: this call reads again.
		let readsAfter = 0
		expect(await cache.get('digest', async () => {
			readsAfter++
			return 'row after the change'
		})).toBe('row after the change')
		expect(readsAfter).toBe(1)
		expect(reads()).toBe(2)
	})
})

describe('the token cache under many stale entries', () => {
	test('stale entries are read again at most REFRESHES_PER_SECOND a second, and the rest answer as they are until a later call', async () => {
		const { cache, read, reads, advance, setRow } = setUp()
		const digests = Array.from({ length: REFRESHES_PER_SECOND * 3 }, (_, index) => `digest ${index}`)
		for (const digest of digests) await cache.get(digest, read)
		expect(reads()).toBe(digests.length)
		setRow('row v2')
		advance(MINUTE_MS + 1)

		// Every entry is found stale in the same instant: one second's budget of them is read again.
		const answers = await Promise.all(digests.map((digest) => cache.get(digest, read)))
		expect(answers.every((answer) => answer === 'row v1')).toBe(true)
		expect(reads()).toBe(digests.length + REFRESHES_PER_SECOND)

		// Half a second later, half a second's budget more; the entries already read again stay fresh.
		advance(500)
		await Bun.sleep(0)
		for (const digest of digests) await cache.get(digest, read)
		expect(reads()).toBe(digests.length + REFRESHES_PER_SECOND * 1.5)
		expect(await cache.get(digests[0]!, read)).toBe('row v2')
		expect(await cache.get(digests.at(-1)!, read)).toBe('row v1')

		// Given time, every entry is read again once, and only once.
		for (const second of [1, 2]) {
			advance(1000 * second)
			for (const digest of digests) await cache.get(digest, read)
			await Bun.sleep(0)
		}
		expect(reads()).toBe(digests.length * 2)
		expect(await cache.get(digests.at(-1)!, read)).toBe('row v2')
	})

	test('a token read for the first time is never held back by the refresh budget', async () => {
		const { cache, read, reads, advance } = setUp()
		const digests = Array.from({ length: REFRESHES_PER_SECOND + 10 }, (_, index) => `digest ${index}`)
		for (const digest of digests) await cache.get(digest, read)
		advance(MINUTE_MS + 1)
		for (const digest of digests) await cache.get(digest, read)
		// The budget is spent on refreshes; a new token is still read before its call is answered.
		expect(await cache.get('a new token', read)).toBe('row v1')
		expect(reads()).toBe(digests.length + REFRESHES_PER_SECOND + 1)
	})
})

describe('the token cache under made-up keys', () => {
	test('a flood of keys that match no token never pushes the tokens in use out of the cache', async () => {
		const { cache, read, reads } = setUp()
		await cache.get('a token in use', read)
		const unknown = async () => undefined
		// More made-up keys than the whole cache holds: only the unknown keys are dropped, apart.
		for (let index = 0; index < 60_000; index++) await cache.get(`made-up ${index}`, unknown)
		expect(await cache.get('a token in use', read)).toBe('row v1')
		expect(reads()).toBe(1)
	})

	test('a key that matched no token is answered from memory until the unknown keys overflow', async () => {
		const { cache } = setUp()
		let lookups = 0
		const unknown = async () => {
			lookups++
			return undefined
		}
		expect(await cache.get('a wrong key', unknown)).toBeUndefined()
		expect(await cache.get('a wrong key', unknown)).toBeUndefined()
		expect(lookups).toBe(1)
		for (let index = 0; index < MAX_UNKNOWN_KEYS; index++) await cache.get(`made-up ${index}`, unknown)
		await cache.get('a wrong key', unknown)
		expect(lookups).toBe(MAX_UNKNOWN_KEYS + 2)
	})

	test('a token deleted and read again is kept as unknown, and a key later made valid is found at once after its change', async () => {
		const { cache, changes, advance } = setUp()
		let row: string | undefined = 'row v1'
		const read = async () => row
		await cache.get('digest', read)
		row = undefined
		advance(MINUTE_MS + 1)
		await cache.get('digest', read)
		await Bun.sleep(0)
		expect(await cache.get('digest', read)).toBeUndefined()
		row = 'row v2'
		changes.notify('tokens', 'local')
		expect(await cache.get('digest', read)).toBe('row v2')
	})
})
