import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { DEFAULT_MODEL_PRICE } from '@shared/default-prices'
import { MAX_MODEL_PRICE, MAX_PRE_CONSUMED_TOKENS, MAX_QUOTA_PER_UNIT, MAX_RATIO } from '@shared/option'
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

	describe(`prices at the edge of the option bounds on ${target.dialect}`, () => {
		let harness: RelayHarness
		let client: OpenAI
		beforeEach(async () => {
			harness = await startRelayHarness(target)
			const upstream = harness.startUpstream({ promptTokens: 100, completionTokens: 20 })
			await harness.createChannel({ base_url: upstream.url, models: 'fixed-model,ratio-model,gpt-4o-mini' })
			client = harness.client((await harness.createToken()).key)
		})
		afterEach(() => harness.close())

		const outcome = (model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })
			.then(() => ({ status: 200, code: 'ok' }), (error: InstanceType<typeof OpenAI.APIError>) => ({ status: error.status, code: error.code }))

		test('the largest prices the bounds allow are refused for want of quota, never a 500, and nothing is charged', async () => {
			const options = harness.ferry.dependencies.options
			// 10 000 dollars × group ratio 10 000 × 10^9 quota a dollar: far above any balance.
			await options.set('ModelPrice', JSON.stringify({ 'fixed-model': MAX_MODEL_PRICE }))
			await options.set('ModelRatio', JSON.stringify({ 'ratio-model': MAX_RATIO }))
			await options.set('CompletionRatio', JSON.stringify({ 'ratio-model': MAX_RATIO }))
			await options.set('GroupRatio', JSON.stringify({ default: MAX_RATIO }))
			await options.set('QuotaPerUnit', String(MAX_QUOTA_PER_UNIT))
			await options.set('PreConsumedQuota', String(MAX_PRE_CONSUMED_TOKENS))
			const { users } = harness.ferry.store.tables
			const balance = async () => (await harness.ferry.store.db.select({ quota: users.quota }).from(users).where(eq(users.id, harness.root.userId)))[0]!.quota
			const before = await balance()
			expect(await outcome('fixed-model')).toEqual({ status: 403, code: 'insufficient_user_quota' })
			expect(await outcome('ratio-model')).toEqual({ status: 403, code: 'insufficient_user_quota' })
			expect(await balance()).toBe(before)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('prices of 1e300 stored before the bounds are not used, and calls are answered, never with a 500', async () => {
			const { options } = harness.ferry.store.tables
			await harness.ferry.store.db.insert(options).values([
				{ key: 'ModelPrice', value: '{"fixed-model":1e300}' }, { key: 'ModelRatio', value: '{"ratio-model":1e300}' },
				{ key: 'GroupRatio', value: '{"default":1e300}' }, { key: 'QuotaPerUnit', value: '1e300' }, { key: 'PreConsumedQuota', value: '1e300' },
			])
			await harness.ferry.dependencies.options.reload()
			// The defaults stand in: the two models have no price there, gpt-4o-mini has its default one.
			expect(await outcome('fixed-model')).toMatchObject({ status: 400 })
			expect(await outcome('ratio-model')).toMatchObject({ status: 400 })
			expect(await outcome('gpt-4o-mini')).toEqual({ status: 200, code: 'ok' })
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
