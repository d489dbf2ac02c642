/**
 * The public price list (seed 002 §3 "Pricing entry", §7 `GET /api/pricing`, §9 pricing display)
 * and the display rules the pricing page applies to it.
 */
import { z } from 'zod'
import { GROUP_RATIO_TIERS } from './token'

/** How a model is billed: by tokens through its ratios, or a fixed price per call. */
export const QUOTA_TYPE = { byTokens: 0, perCall: 1 } as const

export const pricingEntrySchema = z.object({
	model_name: z.string(),
	quota_type: z.union([z.literal(QUOTA_TYPE.byTokens), z.literal(QUOTA_TYPE.perCall)]),
	/** 1 = $2 per million prompt tokens (design §4); 0 for a per-call model. */
	model_ratio: z.number(),
	/** USD per call; 0 for a model billed by tokens. */
	model_price: z.number(),
	completion_ratio: z.number(),
	/** Groups that have an enabled channel serving the model. */
	enable_groups: z.array(z.string()),
})
export type PricingEntry = z.infer<typeof pricingEntrySchema>

/** The answer of `GET /api/pricing`: the envelope with two extra top-level fields (seed 002 §7). */
export const pricingAnswerSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	data: z.array(pricingEntrySchema),
	/** Group → price ratio, as billing resolves it for the caller (anonymous: `GroupRatio`). */
	group_ratio: z.record(z.string(), z.number()),
	/** Group → description: the groups the caller may use (anonymous: `UserUsableGroups`). */
	usable_group: z.record(z.string(), z.string()),
})
export type PricingAnswer = z.infer<typeof pricingAnswerSchema>

/** USD per million tokens at a model ratio of 1 (design §4: 500 000 quota = $1, ratio 1 = $2 / 1M). */
export const USD_PER_MILLION_TOKENS_AT_RATIO_ONE = 2

/** Prompt price in USD per million tokens (seed 002 §9): model ratio × 2 × group ratio. */
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

/** Group-ratio tag colour (seed 000 §9, seed 002 §9): above 5 red, above 3 orange, above 1 blue, else green. */
export function groupRatioTier(ratio: number): RatioTier {
	if (ratio > GROUP_RATIO_TIERS.red) return 'red'
	if (ratio > GROUP_RATIO_TIERS.orange) return 'orange'
	if (ratio > GROUP_RATIO_TIERS.blue) return 'blue'
	return 'green'
}
