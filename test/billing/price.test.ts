import { describe, expect, test } from 'bun:test'
import { MAX_QUOTA } from '@shared/quota-limit'
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

	test('price audio input by AudioRatio and audio output by AudioRatio × AudioCompletionRatio, out of the prompt and completion they are part of', () => {
		const audio = perToken({ modelRatio: 1, groupRatio: 2, completionRatio: 4, audioRatio: 8, audioCompletionRatio: 3 })
		// (60 text in + 40 audio × 8 + 50 text out × 4 + 150 audio out × 8 × 3) × 1 × 2 = (60 + 320 + 200 + 3600) × 2 = 8360
		expect(quotaForUsage(audio, { promptTokens: 100, completionTokens: 200, audioPromptTokens: 40, audioCompletionTokens: 150 }, 500_000)).toBe(8360)
		// Unset audio ratios price audio like text.
		const plain = perToken({ modelRatio: 1, groupRatio: 1, completionRatio: 4 })
		expect(quotaForUsage(plain, { promptTokens: 100, completionTokens: 200, audioPromptTokens: 40, audioCompletionTokens: 150 }, 500_000)).toBe(100 + 50 * 4 + 150)
	})

	test('a call ratio multiplies a fixed price: $0.04 for two images at factor 0.45 costs 18 000', () => {
		expect(quotaForUsage({ kind: 'per_call', modelPrice: 0.04, groupRatio: 1, callRatio: 2 * 0.45 }, { promptTokens: 0, completionTokens: 0 }, 500_000)).toBe(18_000)
		expect(holdFor({ kind: 'per_call', modelPrice: 0.04, groupRatio: 1, callRatio: 1 }, 0, 0, 500_000)).toBe(20_000)
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

	test('a price or hold from out-of-range values (1e300, infinity) is capped at the largest balance, a whole number the ledger takes', () => {
		const huge = [
			quotaForUsage({ kind: 'per_call', modelPrice: 1e300, groupRatio: 1 }, { promptTokens: 0, completionTokens: 0 }, 500_000),
			quotaForUsage({ kind: 'per_call', modelPrice: 0.1, groupRatio: 1e300 }, { promptTokens: 0, completionTokens: 0 }, 1e300),
			quotaForUsage(perToken({ modelRatio: 1e300 }), { promptTokens: 10, completionTokens: 10 }, 500_000),
			quotaForUsage(perToken({ completionRatio: Infinity, groupRatio: 0 }), { promptTokens: 10, completionTokens: 10 }, 500_000),
			holdFor({ kind: 'per_call', modelPrice: 1e300, groupRatio: 1e300 }, 0, 0, 500_000),
			holdFor(perToken({ groupRatio: 1e300 }), 100, 50, 500_000),
			holdFor(perToken(), 100, 1e300, 500_000),
		]
		expect(huge).toEqual(Array(huge.length).fill(MAX_QUOTA))
	})

	test('tiered prices: above the prompt threshold the tier\'s ratios apply, 1-hour cache writes their own ratio, and a minimum charge', () => {
		const tiered = perToken({ modelRatio: 1.5, completionRatio: 5, groupRatio: 1, cacheRatio: 0.1, createCacheRatio: 1.25, tiers: {
			tiers: [{ above_prompt_tokens: 200_000, model_ratio: 3, completion_ratio: 3.75 }],
			create_cache_1h_ratio: 2,
			minimum_quota: 10,
		} })
		// At or below the threshold: the base ratios. (200 000 + 1 000 × 5) × 1.5 = 307 500.
		expect(quotaForUsage(tiered, { promptTokens: 200_000, completionTokens: 1_000 }, 500_000)).toBe(307_500)
		// Above it: (200 001 + 1 000 × 3.75) × 3 = 611 253.
		expect(quotaForUsage(tiered, { promptTokens: 200_001, completionTokens: 1_000 }, 500_000)).toBe(611_253)
		// 1 000 cache writes of which 400 for an hour: (600 × 1.25 + 400 × 2) × 1.5 = 2 325.
		expect(quotaForUsage(tiered, { promptTokens: 1_000, completionTokens: 0, cacheCreationTokens: 1_000, cacheCreation1hTokens: 400 }, 500_000)).toBe(2_325)
		// A tiny call is charged the minimum; no usage is still free.
		expect(quotaForUsage(tiered, { promptTokens: 1, completionTokens: 0 }, 500_000)).toBe(10)
		expect(quotaForUsage(tiered, { promptTokens: 0, completionTokens: 0 }, 500_000)).toBe(0)
		// The hold prices the estimated prompt at its tier, and never below the minimum.
		expect(holdFor(tiered, 300_000, 0, 500_000)).toBe(900_000)
		expect(holdFor(tiered, 1, 0, 500_000)).toBe(10)
	})
})
