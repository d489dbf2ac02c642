/**
 * Relay calls while Redis hangs (issue 26): with the request rate limits counted in Redis, a Redis
 * that keeps its connections but answers nothing (SIGSTOP) would make every call wait out the
 * command timeout on each count. After the first timeouts the link stops asking for a while, the
 * node counts in its own memory, and once Redis answers again the counts go back to it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { RedisClient } from 'bun'
import { REDIS_BREAKER_TIMEOUTS, type RedisLink } from '@/lib/redis'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startPrivateRedis, uniquePrefix, type PrivateRedis } from '../helpers/redis'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { redisUrl } from '../helpers/services'

const CALLS = 12

/** How many rate-limit commands (EVAL for a hit, GET for a count) Redis has run since the last reset. */
async function limitCommands(observer: RedisClient): Promise<number> {
	const info = String(await observer.send('INFO', ['commandstats']))
	const calls = (command: string) => Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0)
	return calls('eval') + calls('get')
}

for (const target of databaseTargets()) {
	describe.skipIf(!redisUrl())(`relay calls while Redis is frozen, on ${target.dialect}`, () => {
		let redis: PrivateRedis
		let observer: RedisClient
		let harness: RelayHarness
		let link: RedisLink
		beforeAll(async () => {
			redis = await startPrivateRedis()
			observer = new RedisClient(redis.url)
		})
		afterAll(async () => {
			observer?.close()
			await redis?.stop()
		})
		beforeEach(async () => {
			harness = await startRelayHarness(target, { config: { ...testConfig, redisUrl: redis.url, redisKeyPrefix: uniquePrefix('breaker') } })
			link = harness.ferry.redis!
			const upstream = harness.startUpstream()
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			for (const [key, value] of Object.entries({ ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '1000', ModelRequestRateLimitSuccessCount: '1000' })) {
				await harness.ferry.dependencies.options.set(key, value)
			}
		})
		afterEach(async () => {
			redis.thaw()
			await harness.close()
		})

		test(`${CALLS} calls are all answered, and only the first timeouts reach Redis; after the thaw the counts go to Redis again`, async () => {
			const client = harness.client((await harness.createToken()).key)
			const call = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
			await call()
			await observer.send('CONFIG', ['RESETSTAT'])

			redis.freeze()
			for (let index = 0; index < CALLS; index++) expect((await call()).choices[0]!.message.content).toBe('Hello from fake-openai')
			expect(link.breakerState()).toBe('open')
			redis.thaw()
			// What was sent to the frozen server runs now: the timeouts that opened the breaker, and
			// the commands already in flight beside them (a call's success count runs in the background).
			await Bun.sleep(200)
			const sentWhileFrozen = await limitCommands(observer)
			expect(sentWhileFrozen).toBeGreaterThanOrEqual(REDIS_BREAKER_TIMEOUTS)
			expect(sentWhileFrozen).toBeLessThanOrEqual(REDIS_BREAKER_TIMEOUTS + 2)

			const deadline = Date.now() + 10_000
			while (link.breakerState() !== 'closed' && Date.now() < deadline) {
				await call()
				await Bun.sleep(100)
			}
			expect(link.breakerState()).toBe('closed')
			await observer.send('CONFIG', ['RESETSTAT'])
			await call()
			expect(await limitCommands(observer)).toBeGreaterThanOrEqual(2)
		}, 30_000)
	})
}
