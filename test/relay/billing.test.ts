import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { DEFAULT_MODEL_PRICE } from '@shared/default-prices'
import { auditLedger } from '@/billing/audit'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const CALLS_COVERED = 5
const FIXED_PRICE_USD = 0.002
const FIXED_PRICE_QUOTA = 1000

for (const target of databaseTargets()) {
	describe(`billing under concurrent calls on ${target.dialect}`, () => {
		let harness: RelayHarness
		beforeEach(async () => {
			harness = await startRelayHarness(target)
			const upstream = harness.startUpstream({ promptTokens: 100, completionTokens: 20 })
			await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, 'fixed-model': FIXED_PRICE_USD }))
			await harness.createChannel({ base_url: upstream.url, models: 'fixed-model,gpt-4o-mini' })
		})
		afterEach(() => harness.close())

		async function fundedUser(name: string, quota: number) {
			const user = await harness.ferry.createUser(name)
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota } })
			return user
		}
		const state = async (userId: number, tokenId: number) => {
			const { users, tokens } = harness.ferry.store.tables
			const [user] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
			const [token] = await harness.ferry.store.db.select().from(tokens).where(eq(tokens.id, tokenId))
			return { quota: user!.quota, used: user!.usedQuota, requests: user!.requestCount, remain: token!.remainQuota, tokenUsed: token!.usedQuota }
		}
		const call = (client: OpenAI, model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })
			.then(() => 'ok' as const, (error: unknown) => (error as InstanceType<typeof OpenAI.APIError>).code ?? String(error))

		test(`a user whose quota covers exactly ${CALLS_COVERED} fixed-price calls gets exactly ${CALLS_COVERED} of ${10 * CALLS_COVERED} concurrent calls`, async () => {
			const user = await fundedUser('storm', CALLS_COVERED * FIXED_PRICE_QUOTA)
			const token = await harness.createToken({ name: 'storm' }, user)
			const client = harness.client(token.key)
			const outcomes = await Promise.all(Array.from({ length: 10 * CALLS_COVERED }, () => call(client, 'fixed-model')))
			expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(CALLS_COVERED)
			expect(new Set(outcomes.filter((outcome) => outcome !== 'ok'))).toEqual(new Set(['insufficient_user_quota']))
			expect(await state(user.userId, token.id)).toMatchObject({ quota: 0, used: CALLS_COVERED * FIXED_PRICE_QUOTA, requests: CALLS_COVERED, tokenUsed: CALLS_COVERED * FIXED_PRICE_QUOTA })
			const { logs } = harness.ferry.store.tables
			const consumed = await harness.ferry.store.db.select().from(logs).where(eq(logs.userId, user.userId))
			expect(consumed.filter((log) => log.type === 2).reduce((sum, log) => sum + log.quota, 0)).toBe(CALLS_COVERED * FIXED_PRICE_QUOTA)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a token-priced storm never takes a balance or a token below zero, and the ledger holds to the unit', async () => {
			const user = await fundedUser('tokens', 2_000)
			const token = await harness.createToken({ name: 'limited', unlimited_quota: false, remain_quota: 1_500 }, user)
			const client = harness.client(token.key)
			const outcomes = await Promise.all(Array.from({ length: 60 }, () => call(client, 'gpt-4o-mini')))
			const succeeded = outcomes.filter((outcome) => outcome === 'ok').length
			expect(succeeded).toBeGreaterThan(0)
			const after = await state(user.userId, token.id)
			// Each call costs (100 + 20 × 4) × 0.075 = 13.5 → 14 quota.
			expect(after).toEqual({ quota: 2_000 - succeeded * 14, used: succeeded * 14, requests: succeeded, remain: 1_500 - succeeded * 14, tokenUsed: succeeded * 14 })
			expect(after.quota).toBeGreaterThanOrEqual(0)
			expect(after.remain).toBeGreaterThanOrEqual(0)
			const { quotaHolds } = harness.ferry.store.tables
			const pending = await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))
			expect(pending).toEqual([])
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
