/**
 * OpenAI's legacy dashboard billing endpoints (src/relay/edge/billing.ts), read with the official
 * OpenAI SDK's plain GET, and by Ferry's own OpenAI balance reader through a channel pointed at this
 * Ferry: `DisplayTokenStatEnabled` decides whether a token with a quota of its own reports it, or
 * its user's quota is reported.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import type { BillingSubscription, BillingUsage } from '@shared/billing-dashboard'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const QUOTA_PER_UNIT = 500_000
const EXPIRES = 4_102_444_800

for (const target of databaseTargets()) {
	describe(`the legacy billing endpoints on ${target.dialect}`, () => {
		let harness: RelayHarness
		let limited: OpenAI
		let unlimited: OpenAI
		let limitedKey: string
		/** The user's and the limited token's quota, remaining and used, after a call of each token. */
		let user: { remaining: number; used: number }
		let token: { remaining: number; used: number }

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			const upstream = harness.startUpstream({ promptTokens: 1000, completionTokens: 200 })
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			const caller = await harness.ferry.createUser('biller')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: caller.userId, quota: 2_000_000 } })
			const created = await harness.createToken({ name: 'limited', unlimited_quota: false, remain_quota: 250_000, expired_time: EXPIRES }, caller)
			limitedKey = created.key
			limited = harness.client(created.key)
			unlimited = harness.client((await harness.createToken({ name: 'unlimited', unlimited_quota: true }, caller)).key)
			// Both tokens spend, so the token's and the user's figures differ.
			for (const client of [limited, unlimited, unlimited]) await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
			const { users, tokens } = harness.ferry.store.tables
			const [userRow] = await harness.ferry.store.db.select().from(users).where(eq(users.id, caller.userId))
			const [tokenRow] = await harness.ferry.store.db.select().from(tokens).where(eq(tokens.id, created.id))
			user = { remaining: userRow!.quota, used: userRow!.usedQuota }
			token = { remaining: tokenRow!.remainQuota, used: tokenRow!.usedQuota }
			expect(token.used).toBeGreaterThan(0)
			expect(user.used).toBeGreaterThan(token.used)
		})
		afterAll(() => harness.close())

		const setOption = (on: boolean) => harness.ferry.dependencies.options.set('DisplayTokenStatEnabled', String(on))
		const subscription = (client: OpenAI, path = '/dashboard/billing/subscription') => client.get<BillingSubscription>(path)
		const usage = (client: OpenAI, path = '/dashboard/billing/usage') => client.get<BillingUsage>(path)

		test('with the option on, a limited token reports its own quota, remaining and used, and its expiry', async () => {
			await setOption(true)
			const limit = (token.remaining + token.used) / QUOTA_PER_UNIT
			expect(await subscription(limited)).toEqual({
				object: 'billing_subscription', has_payment_method: true, soft_limit_usd: limit, hard_limit_usd: limit, system_hard_limit_usd: limit, access_until: EXPIRES,
			})
			expect(await usage(limited)).toEqual({ object: 'list', total_usage: token.used / QUOTA_PER_UNIT * 100 })
		})

		test('an unlimited token reports its user\'s quota, with no expiry', async () => {
			await setOption(true)
			const limit = (user.remaining + user.used) / QUOTA_PER_UNIT
			expect(await subscription(unlimited)).toMatchObject({ hard_limit_usd: limit, soft_limit_usd: limit, access_until: 0 })
			expect(await usage(unlimited)).toEqual({ object: 'list', total_usage: user.used / QUOTA_PER_UNIT * 100 })
		})

		test('with the option off, every token reports its user\'s quota, also under the paths without /v1', async () => {
			await setOption(false)
			const limit = (user.remaining + user.used) / QUOTA_PER_UNIT
			const bare = new OpenAI({ apiKey: limitedKey, baseURL: harness.baseUrl, maxRetries: 0 })
			expect(await subscription(limited)).toMatchObject({ hard_limit_usd: limit, access_until: 0 })
			expect(await subscription(bare)).toMatchObject({ hard_limit_usd: limit, access_until: 0 })
			expect(await usage(bare)).toEqual({ object: 'list', total_usage: user.used / QUOTA_PER_UNIT * 100 })
		})

		test('a wrong key is refused with OpenAI\'s 401 shape', async () => {
			const stranger = new OpenAI({ apiKey: 'sk-not-a-token', baseURL: `${harness.baseUrl}/v1`, maxRetries: 0 })
			const error = await subscription(stranger).catch((failure: unknown) => failure)
			expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
			expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key')
		})

		test('a Ferry channel pointed at this Ferry with the token reads the token\'s remaining quota as its balance', async () => {
			await setOption(true)
			const id = await harness.createChannel({ name: 'ferry-upstream', type: 1, base_url: harness.baseUrl, key: limitedKey, models: 'gpt-4o-mini' })
			const answer = await harness.ferry.call('GET', `/api/channel/update_balance/${id}`, { as: harness.root })
			expect(answer.body.success).toBe(true)
			const [channel] = await harness.ferry.store.db.select().from(harness.ferry.store.tables.channels).where(eq(harness.ferry.store.tables.channels.id, id))
			expect(channel!.balance).toBeCloseTo(token.remaining / QUOTA_PER_UNIT, 6)
		})
	})
}
