/**
 * The Redis link (issue 17): the rate limiter shared by every node through Redis, and what happens
 * when Redis is away: hits are counted by the node itself, at once, and nothing fails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { RedisClient } from 'bun'
import { silentLogger } from '@/lib/logger'
import { createRedisRateLimiter } from '@/lib/rate-limiter'
import { connectRedis, REDIS_BREAKER_TIMEOUTS, type RedisLink } from '@/lib/redis'
import { startPrivateRedis, uniquePrefix, type PrivateRedis } from '../helpers/redis'
import { redisUrl } from '../helpers/services'

const url = redisUrl()

describe.skipIf(!url)('the rate limiter shared through Redis', () => {
	const links: RedisLink[] = []
	afterEach(() => {
		for (const link of links.splice(0)) link.close()
	})
	async function node(prefix: string, at = url!) {
		const link = await connectRedis(at, prefix, silentLogger)
		links.push(link)
		return link
	}

	test('two nodes share one window: of ten hits alternating between them, exactly five pass', async () => {
		const prefix = uniquePrefix('limit')
		const [first, second] = [createRedisRateLimiter(await node(prefix)), createRedisRateLimiter(await node(prefix))]
		const answers: boolean[] = []
		for (let index = 0; index < 10; index++) answers.push(await (index % 2 === 0 ? first : second).hit('login:address:1.2.3.4', 5, 60))
		expect(answers).toEqual([true, true, true, true, true, false, false, false, false, false])
		// Another bucket is counted apart.
		expect(await first.hit('login:address:5.6.7.8', 5, 60)).toBe(true)
	})

	test('adding amounts shares one window between nodes and tells how long it has left; reading alone creates no counter', async () => {
		const prefix = uniquePrefix('add')
		const [first, second] = [createRedisRateLimiter(await node(prefix)), createRedisRateLimiter(await node(prefix))]
		expect(await second.add('tpm:t:1', 0, 60)).toEqual({ count: 0, resetInSeconds: 0 })
		expect(await first.add('tpm:t:1', 15, 60)).toEqual({ count: 15, resetInSeconds: 60 })
		const added = await second.add('tpm:t:1', 15, 60)
		expect(added.count).toBe(30)
		expect(added.resetInSeconds).toBeGreaterThanOrEqual(59)
		expect((await first.add('tpm:t:1', 0, 60)).count).toBe(30)
		expect((await first.add('tpm:t:2', 0, 60)).count).toBe(0)
	})

	test('calls at once are counted for every subject together across nodes: past one limit none is counted', async () => {
		const prefix = uniquePrefix('inflight')
		const { createConcurrencyLimits } = await import('@/relay/edge/concurrency-limits')
		const { NO_CALL_LIMITS } = await import('@/relay/caller')
		const options = { get: (key: string) => (key === 'GroupRateLimits' || key === 'ModelRateLimits' ? {} : undefined) } as never
		const caller = (tokenId: number) => ({
			user: { id: 9, username: 'u', group: 'default', role: 1, limits: { ...NO_CALL_LIMITS, concurrency: 2 } },
			token: { id: tokenId, name: 't', group: '', unlimited: true, modelLimits: undefined, limits: { ...NO_CALL_LIMITS, concurrency: 5 }, responseCache: true },
			pinnedChannelId: undefined,
		})
		const [first, second] = [createConcurrencyLimits(options, await node(prefix)), createConcurrencyLimits(options, await node(prefix))]
		const one = await first.acquire(caller(1))
		const two = await second.acquire(caller(2))
		const refused = await first.acquire(caller(1)).catch((error) => error)
		expect(refused.status).toBe(429)
		expect(refused.message).toBe('this user allows at most 2 requests at once')
		one!()
		// The refusal took nothing: once the release reached Redis (it is not awaited), the user has room for one again.
		let three: (() => void) | undefined
		for (let attempt = 0; attempt < 50 && !three; attempt++) {
			three = await second.acquire(caller(1)).catch(() => undefined)
			if (!three) await Bun.sleep(10)
		}
		expect(three).toBeDefined()
		two!()
		three!()
	})

	test('a count reads what every node hit in the window, without counting itself', async () => {
		const prefix = uniquePrefix('count')
		const [first, second] = [createRedisRateLimiter(await node(prefix)), createRedisRateLimiter(await node(prefix))]
		expect(await second.count('model-request:success:1:7')).toBe(0)
		await first.hit('model-request:success:1:7', 10, 60)
		await second.hit('model-request:success:1:7', 10, 60)
		expect(await first.count('model-request:success:1:7')).toBe(2)
		expect(await second.count('model-request:success:1:7')).toBe(2)
	})

	test('a window\'s counter expires with the window, so the bucket opens again', async () => {
		const prefix = uniquePrefix('expiry')
		const link = await node(prefix)
		const limiter = createRedisRateLimiter(link)
		expect(await limiter.hit('mail:alice', 1, 1)).toBe(true)
		expect(await limiter.hit('mail:alice', 1, 1)).toBe(false)
		const ttl = await link.command((client) => client.ttl(`${prefix}rate:mail:alice`))
		expect(ttl).toBeGreaterThan(0)
		expect(ttl).toBeLessThanOrEqual(1)
		await Bun.sleep(1_200)
		expect(await limiter.hit('mail:alice', 1, 1)).toBe(true)
	})

	test('with Redis unreachable from the start, hits are counted by the node itself, without waiting', async () => {
		const link = await node(uniquePrefix('absent'), 'redis://127.0.0.1:1')
		expect(link.connected()).toBe(false)
		let attempts = 0
		// Counts the commands the link lets through to Redis: none, so no hit waits for a command's timeout.
		const counted: RedisLink = { ...link, command: (run) => link.command((client) => (attempts++, run(client))) }
		const limiter = createRedisRateLimiter(counted)
		const answers: boolean[] = []
		for (let index = 0; index < 4; index++) answers.push(await limiter.hit('login:address:9.9.9.9', 3, 60))
		expect(answers).toEqual([true, true, true, false])
		expect(attempts).toBe(0)
	})
})

describe.skipIf(!url)('a Redis outage', () => {
	let redis: PrivateRedis
	const links: RedisLink[] = []
	beforeAll(async () => {
		redis = await startPrivateRedis()
	})
	afterAll(async () => {
		for (const link of links.splice(0)) link.close()
		await redis?.stop()
	})

	test('falls back to the node\'s own count while Redis is down and shares the count again once it is back', async () => {
		const prefix = uniquePrefix('outage')
		const link = await connectRedis(redis.url, prefix, silentLogger)
		links.push(link)
		let attempts = 0
		const counted: RedisLink = { ...link, command: (run) => link.command((client) => (attempts++, run(client))) }
		const limiter = createRedisRateLimiter(counted)
		expect(await limiter.hit('shared', 2, 60)).toBe(true)

		await redis.stop()
		attempts = 0
		// Whether the link has noticed yet or not, each hit is answered, by the local count, after at most
		// one try at Redis (which a command timeout ends).
		const during = [await limiter.hit('during', 2, 60), await limiter.hit('during', 2, 60), await limiter.hit('during', 2, 60)]
		expect(during).toEqual([true, true, false])
		expect(attempts).toBeLessThanOrEqual(during.length)

		await redis.start()
		const deadline = Date.now() + 10_000
		while (!link.connected() && Date.now() < deadline) await Bun.sleep(50)
		expect(link.connected()).toBe(true)
		// Back on Redis: a counter another client can see.
		expect(await limiter.hit('after', 5, 60)).toBe(true)
		const observer = new RedisClient(redis.url)
		expect(await observer.get(`${prefix}rate:after`)).toBe('1')
		observer.close()
	}, 20_000)

	test('a subscription is made again after Redis comes back, and each message arrives once', async () => {
		const prefix = uniquePrefix('resubscribe')
		const link = await connectRedis(redis.url, prefix, silentLogger)
		links.push(link)
		const heard: string[] = []
		link.subscribe('news', (message) => heard.push(message))
		const publisher = await connectRedis(redis.url, prefix, silentLogger)
		links.push(publisher)
		const publishUntilHeard = async (message: string) => {
			const deadline = Date.now() + 10_000
			while (!heard.includes(message) && Date.now() < deadline) {
				await publisher.command((client) => client.publish(`${prefix}news`, message)).catch(() => 0)
				await Bun.sleep(100)
			}
		}
		await publishUntilHeard('before')
		await redis.stop()
		await redis.start()
		await publishUntilHeard('after')
		expect(heard.filter((message) => message === 'after')).toEqual(['after'])
		await publisher.command((client) => client.publish(`${prefix}news`, 'once'))
		await Bun.sleep(200)
		expect(heard.filter((message) => message === 'once')).toEqual(['once'])
	}, 30_000)
})

describe.skipIf(!url)('a frozen Redis (SIGSTOP: connected, answering nothing)', () => {
	let redis: PrivateRedis
	const links: RedisLink[] = []
	beforeAll(async () => {
		redis = await startPrivateRedis()
	})
	afterAll(async () => {
		for (const link of links.splice(0)) link.close()
		await redis?.stop()
	})

	test('after a few timeouts the link stops asking and hits are counted locally; after the thaw it asks Redis again', async () => {
		const prefix = uniquePrefix('frozen')
		const link = await connectRedis(redis.url, prefix, silentLogger)
		links.push(link)
		let attempts = 0
		// Counts the commands the link lets through to Redis.
		const counted: RedisLink = { ...link, command: (run) => link.command((client) => (attempts++, run(client))) }
		const limiter = createRedisRateLimiter(counted)
		expect(await limiter.hit('warm', 5, 60)).toBe(true)
		expect(link.breakerState()).toBe('closed')

		attempts = 0
		redis.freeze()
		const during: boolean[] = []
		for (let index = 0; index < 20; index++) during.push(await limiter.hit('frozen', 10, 60))
		// The local count answers every hit: ten pass, ten do not.
		expect(during).toEqual([...Array(10).fill(true), ...Array(10).fill(false)])
		expect(link.breakerState()).toBe('open')
		// The first timeouts, and at most one probe if this machine stalled through a whole cool-down.
		expect(attempts).toBeGreaterThanOrEqual(REDIS_BREAKER_TIMEOUTS)
		expect(attempts).toBeLessThanOrEqual(REDIS_BREAKER_TIMEOUTS + 1)

		redis.thaw()
		const deadline = Date.now() + 10_000
		while (link.breakerState() !== 'closed' && Date.now() < deadline) {
			await limiter.hit('after', 100, 60)
			await Bun.sleep(100)
		}
		expect(link.breakerState()).toBe('closed')
		expect(await limiter.hit('shared-again', 5, 60)).toBe(true)
		const observer = new RedisClient(redis.url)
		expect(await observer.get(`${prefix}rate:shared-again`)).toBe('1')
		observer.close()
	}, 30_000)
})
