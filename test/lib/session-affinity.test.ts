import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type AffinityStore, createMemoryAffinity, createRedisAffinity } from '@/lib/session-affinity'
import { connectRedis, type RedisLink } from '@/lib/redis'
import { silentLogger } from '@/lib/logger'
import { randomString } from '@/lib/crypto'
import { redisUrl } from '../helpers/services'
import { eventually } from '../helpers/eventually'

describe('session affinity in memory', () => {
	test('a pinned session answers its target and renews it on each use; an unused one expires', async () => {
		let time = 0
		const store = createMemoryAffinity(() => ({ ttlSeconds: 10, maxEntries: 100 }), () => time)
		store.set('s1', { channelId: 1, keyIndex: 2 })
		time = 9_000
		expect(await store.get('s1')).toEqual({ channelId: 1, keyIndex: 2 })
		time = 18_000
		expect(await store.get('s1')).toEqual({ channelId: 1, keyIndex: 2 })
		time = 28_001
		expect(await store.get('s1')).toBeUndefined()
	})

	test('past the most entries, the least recently used go first', async () => {
		const store = createMemoryAffinity(() => ({ ttlSeconds: 60, maxEntries: 2 }))
		store.set('a', { channelId: 1, keyIndex: 0 })
		store.set('b', { channelId: 1, keyIndex: 1 })
		await store.get('a')
		store.set('c', { channelId: 1, keyIndex: 2 })
		expect(await store.get('b')).toBeUndefined()
		expect(await store.get('a')).toEqual({ channelId: 1, keyIndex: 0 })
		expect(await store.get('c')).toEqual({ channelId: 1, keyIndex: 2 })
	})

	test('one session or all can be purged', async () => {
		const store = createMemoryAffinity(() => ({ ttlSeconds: 60, maxEntries: 10 }))
		store.set('a', { channelId: 1, keyIndex: 0 })
		store.set('b', { channelId: 1, keyIndex: 1 })
		expect(await store.purge('a')).toBe(1)
		expect(await store.get('a')).toBeUndefined()
		expect(await store.purge()).toBe(1)
		expect(await store.get('b')).toBeUndefined()
	})
})

const url = redisUrl()

describe.skipIf(!url)('session affinity shared through Redis', () => {
	let first: RedisLink
	let second: RedisLink
	let nodeA: AffinityStore
	let nodeB: AffinityStore
	beforeAll(async () => {
		const prefix = `ferry-test-${randomString(8)}:`
		first = await connectRedis(url!, prefix, silentLogger)
		second = await connectRedis(url!, prefix, silentLogger)
		const settings = () => ({ ttlSeconds: 60, maxEntries: 10 })
		nodeA = createRedisAffinity(first, settings)
		nodeB = createRedisAffinity(second, settings)
	})
	afterAll(async () => {
		await nodeA.purge()
		first.close()
		second.close()
	})

	test('a session pinned on one node is found on another, and a re-pin is seen there too', async () => {
		// A pin is written to Redis after `set` returns: the other node reads it once the write landed.
		nodeA.set('session-x', { channelId: 4, keyIndex: 3 })
		await eventually(async () => (await nodeB.get('session-x'))?.channelId === 4)
		expect(await nodeB.get('session-x')).toEqual({ channelId: 4, keyIndex: 3 })
		nodeB.set('session-x', { channelId: 5, keyIndex: 0 })
		await eventually(async () => (await nodeA.get('session-x'))?.channelId === 5)
		expect(await nodeA.get('session-x')).toEqual({ channelId: 5, keyIndex: 0 })
	})

	test('purging every session empties the shared store', async () => {
		nodeA.set('p1', { channelId: 1, keyIndex: 0 })
		nodeA.set('p2', { channelId: 1, keyIndex: 1 })
		await eventually(async () => (await nodeB.get('p1')) !== undefined && (await nodeB.get('p2')) !== undefined)
		expect(await nodeB.purge()).toBeGreaterThanOrEqual(2)
		expect(await nodeA.get('p1')).toBeUndefined()
	})
})
