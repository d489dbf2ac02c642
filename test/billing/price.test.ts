import { describe, expect, test } from 'bun:test'
import { holdFor, quotaForUsage, roundQuota, type Pricing } from '@/billing/price'

const perToken = (overrides: Partial<Extract<Pricing, { kind: 'per_token' }>> = {}): Pricing => ({
	kind: 'per_token', modelRatio: 2.5, completionRatio: 4, cacheRatio: 0.5, createCacheRatio: 1.25, groupRatio: 1.5, ...overrides,
})

describe('prices', () => {
	test('charge (prompt + completion × completion ratio) × model ratio × group ratio', () => {
		// (1000 + 200 × 4) × 2.5 × 1.5 = 6750
		expect(quotaForUsage(perToken(), { promptTokens: 1000, completionTokens: 200 }, 500_000)).toBe(6750)
	})

	test('price cached reads and cache writes by their ratios without counting them twice', () => {
		// plain 600 + cached 300 × 0.5 + written 100 × 1.25 = 875; + 0 completion; × 2.5 × 1.5 = 3281.25 → 3281
		expect(quotaForUsage(perToken(), { promptTokens: 1000, completionTokens: 0, cachedTokens: 300, cacheCreationTokens: 100 }, 500_000)).toBe(3281)
	})

	test('a fixed model price wins and costs price × group ratio × QuotaPerUnit per call', () => {
		expect(quotaForUsage({ kind: 'per_call', modelPrice: 0.04, groupRatio: 1.5 }, { promptTokens: 0, completionTokens: 0 }, 500_000)).toBe(30_000)
	})

	test('a priced call with tokens never costs 0, a call without usage costs 0', () => {
		const cheap = perToken({ modelRatio: 0.0001, groupRatio: 1, completionRatio: 1 })
		expect(quotaForUsage(cheap, { promptTokens: 1, completionTokens: 0 }, 500_000)).toBe(1)
		expect(quotaForUsage(perToken(), { promptTokens: 0, completionTokens: 0 }, 500_000)).toBe(0)
	})

	test('round half away from zero', () => {
		expect([roundQuota(2.5), roundQuota(-2.5), roundQuota(2.4999)]).toEqual([3, -3, 2])
		expect(quotaForUsage(perToken({ modelRatio: 0.5, groupRatio: 1, completionRatio: 1 }), { promptTokens: 5, completionTokens: 0 }, 500_000)).toBe(3)
	})

	test('a hold covers the prompt estimate plus the completion allowance priced as output, never zero', () => {
		// (100 + 50 × 4) × 2.5 × 1.5 = 1125
		expect(holdFor(perToken(), 100, 50, 500_000)).toBe(1125)
		expect(holdFor(perToken({ modelRatio: 0 }), 100, 50, 500_000)).toBe(1)
		expect(holdFor({ kind: 'per_call', modelPrice: 0.1, groupRatio: 1 }, 0, 0, 500_000)).toBe(50_000)
	})
})
