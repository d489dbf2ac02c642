/** The pricing page's display rules (docs/specification/pricing.md#the-pricing-page): zod-free, so pages load them without the schemas (`pricing.ts` re-exports them). */
import type { PricingEntry } from './pricing'
import { GROUP_RATIO_TIERS } from './token-constants'

/** How a model is billed: by tokens through its ratios, or a fixed price per call. */
export const QUOTA_TYPE = { byTokens: 0, perCall: 1 } as const

/** USD per million tokens at a model ratio of 1 (docs/specification/pricing.md#the-price-of-a-call: 500 000 quota = $1, ratio 1 = $2 / 1M). */
export const USD_PER_MILLION_TOKENS_AT_RATIO_ONE = 2

/** Prompt price in USD per million tokens (docs/specification/pricing.md#the-pricing-page): model ratio × 2 × group ratio. */
export function promptPricePerMillion(entry: Pick<PricingEntry, 'model_ratio'>, groupRatio: number): number {
	return entry.model_ratio * USD_PER_MILLION_TOKENS_AT_RATIO_ONE * groupRatio
}

/** Completion price in USD per million tokens: the prompt price × completion ratio. */
export function completionPricePerMillion(entry: Pick<PricingEntry, 'model_ratio' | 'completion_ratio'>, groupRatio: number): number {
	return promptPricePerMillion(entry, groupRatio) * entry.completion_ratio
}

/** Price of one call in USD for a fixed-price model: model price × group ratio. */
export function pricePerCall(entry: Pick<PricingEntry, 'model_price'>, groupRatio: number): number {
	return entry.model_price * groupRatio
}

export type RatioTier = 'red' | 'orange' | 'blue' | 'green'

/** Group-ratio tag colour (docs/specification/pricing.md#the-pricing-page): above 5 red, above 3 orange, above 1 blue, else green. */
export function groupRatioTier(ratio: number): RatioTier {
	if (ratio > GROUP_RATIO_TIERS.red) return 'red'
	if (ratio > GROUP_RATIO_TIERS.orange) return 'orange'
	if (ratio > GROUP_RATIO_TIERS.blue) return 'blue'
	return 'green'
}
