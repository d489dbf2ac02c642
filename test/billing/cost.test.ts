/**
 * The cost side of a call (issue 28 item 5): per-model cost prices win for the models they name
 * (USD per million input, cached, cache-write and output tokens, or per call), else the channel's
 * cost ratio times the list price before group ratios; without either the cost is unknown. And
 * what a Claude answer says about 1-hour cache writes reaches billing.
 */
import { describe, expect, test } from 'bun:test'
import { costOfCall, referenceCost } from '@/billing/cost'
import type { Pricing } from '@/billing/price'
import { readChannelCost } from '@/db/stores/channels'
import { usageFromClaude } from '@/relay/formats/claude/usage'
import { usageFrom } from '@/relay/formats/openai/usage'
import { openAIUsageFromClaude } from '@/relay/formats/claude/usage'

const QUOTA_PER_UNIT = 500_000
const tokens: Pricing = { kind: 'per_token', modelRatio: 2, completionRatio: 4, cacheRatio: 0.5, createCacheRatio: 1.25, groupRatio: 3 }
const perCall: Pricing = { kind: 'per_call', modelPrice: 0.04, groupRatio: 3, callRatio: 2 }

describe('the cost of a call', () => {
	test('a cost ratio multiplies the list price before the group ratio', () => {
		// (1 000 + 100 × 4) × 2 = 2 800 at list price; × 0.5.
		expect(costOfCall(readChannelCost(0.5, ''), 'm', tokens, { promptTokens: 1_000, completionTokens: 100 }, QUOTA_PER_UNIT)).toBe(1_400)
		// $0.04 × 2 images × 500 000 = 40 000; × 0.25.
		expect(costOfCall(readChannelCost(0.25, ''), 'm', perCall, { promptTokens: 0, completionTokens: 0 }, QUOTA_PER_UNIT)).toBe(10_000)
	})

	test('per-model cost prices win for their models: tokens by their prices, cached and written input apart, or a price per call', () => {
		const cost = readChannelCost(0.5, JSON.stringify({ m: { input: 2, output: 8, cache_read: 0.5 }, image: { per_call: 0.02 } }))
		// (600 × 2 + 300 × 0.5 + 100 × 2 + 50 × 8) / 10^6 dollars = 0.00195 → 975 quota.
		expect(costOfCall(cost, 'm', tokens, { promptTokens: 1_000, completionTokens: 50, cachedTokens: 300, cacheCreationTokens: 100 }, QUOTA_PER_UNIT)).toBe(975)
		expect(costOfCall(cost, 'image', perCall, { promptTokens: 0, completionTokens: 0 }, QUOTA_PER_UNIT)).toBe(20_000)
		// Another model falls back to the ratio.
		expect(costOfCall(cost, 'other', tokens, { promptTokens: 1_000, completionTokens: 100 }, QUOTA_PER_UNIT)).toBe(1_400)
	})

	test('without a ratio or a price for the model the cost is unknown', () => {
		expect(costOfCall(readChannelCost(null, ''), 'm', tokens, { promptTokens: 1_000, completionTokens: 100 }, QUOTA_PER_UNIT)).toBeUndefined()
		expect(costOfCall(readChannelCost(null, '{"other": {"input": 1}}'), 'm', tokens, { promptTokens: 1, completionTokens: 1 }, QUOTA_PER_UNIT)).toBeUndefined()
		expect(readChannelCost(null, 'not json')).toEqual({ ratio: undefined, models: {} })
	})

	test('the reference cost least_cost routes by puts ratios and cost prices on one scale, unrounded', () => {
		// 1 000 prompt + 1 000 completion tokens: (1 000 + 1 000 × 4) × 2 = 10 000 at list price.
		expect(referenceCost(readChannelCost(0.5, ''), 'm', tokens, QUOTA_PER_UNIT)).toBe(5_000)
		// ($2 + $8) per million × 1 000 each = $0.01 → 5 000: as dear as half the list price here.
		expect(referenceCost(readChannelCost(null, '{"m": {"input": 2, "output": 8}}'), 'm', tokens, QUOTA_PER_UNIT)).toBe(5_000)
		// Far below a quota unit it still tells channels apart.
		expect(referenceCost(readChannelCost(0.0001, ''), 'm', tokens, QUOTA_PER_UNIT)).toBeCloseTo(1)
		expect(referenceCost(readChannelCost(0.00011, ''), 'm', tokens, QUOTA_PER_UNIT)).toBeCloseTo(1.1)
		// An unpriced model: only the channel's own cost prices count.
		expect(referenceCost(readChannelCost(0.5, ''), 'm', undefined, QUOTA_PER_UNIT)).toBeUndefined()
		expect(referenceCost(readChannelCost(0.5, '{"m": {"per_call": 0.01}}'), 'm', undefined, QUOTA_PER_UNIT)).toBe(5_000)
	})
})

describe('1-hour cache writes in a Claude answer', () => {
	const claudeUsage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 1_000, cache_creation: { ephemeral_5m_input_tokens: 600, ephemeral_1h_input_tokens: 400 } }

	test('are read as part of the cache writes, whether the answer stays in Claude\'s format or is converted', () => {
		expect(usageFromClaude(claudeUsage)).toMatchObject({ promptTokens: 1_010, cacheCreationTokens: 1_000, cacheCreation1hTokens: 400 })
		expect(usageFrom(openAIUsageFromClaude(claudeUsage))).toMatchObject({ promptTokens: 1_010, cacheCreationTokens: 1_000, cacheCreation1hTokens: 400 })
		expect(usageFromClaude({ input_tokens: 1, output_tokens: 1 })).not.toHaveProperty('cacheCreation1hTokens')
	})
})
