/**
 * Tiered prices (`ModelPriceTiers`), for models whose providers price that way: per model, the
 * ratios that apply once a call's prompt passes a threshold (e.g. above 200 000 input tokens),
 * a ratio of its own for 1-hour cache writes, and a minimum charge. Declarative: numbers only,
 * no expressions; checked when saved.
 *
 *   {"claude-sonnet-4-5": {"tiers": [{"above_prompt_tokens": 200000, "model_ratio": 3, "completion_ratio": 3.75}],
 *                          "create_cache_1h_ratio": 2, "minimum_quota": 10}}
 */
import { z } from 'zod'
import { MAX_QUOTA } from './quota-limit'

/** Any ratio an option holds stays within this (option.ts re-exports it). */
export const MAX_RATIO = 10_000
/** A threshold past any real context window. */
export const PRICE_TIER_MAX_PROMPT_TOKENS = 100_000_000
export const PRICE_TIERS_MAX = 8

const ratio = z.number().min(0).max(MAX_RATIO)

export const priceTierSchema = z.strictObject({
	/** The tier applies to calls whose prompt has more tokens than this. */
	above_prompt_tokens: z.number().int().min(1).max(PRICE_TIER_MAX_PROMPT_TOKENS),
	model_ratio: ratio.optional(),
	completion_ratio: ratio.optional(),
	cache_ratio: ratio.optional(),
	create_cache_ratio: ratio.optional(),
})
export type PriceTier = z.infer<typeof priceTierSchema>

export const modelPriceTiersEntrySchema = z.strictObject({
	/** In rising order of threshold (checked by the option, option.ts): the last one a call passes applies. */
	tiers: z.array(priceTierSchema).max(PRICE_TIERS_MAX).optional(),
	/** 1-hour cache writes (part of the cache writes) at this ratio instead of `CreateCacheRatio`. */
	create_cache_1h_ratio: ratio.optional(),
	/** The least a call with any usage is charged, in quota (after the group ratio). */
	minimum_quota: z.number().int().min(0).max(MAX_QUOTA).optional(),
})

/** Whether an entry's tiers rise in threshold. */
export const tiersRise = (entry: ModelPriceTiersEntry) =>
	(entry.tiers ?? []).every((tier, index, tiers) => index === 0 || tier.above_prompt_tokens > tiers[index - 1]!.above_prompt_tokens)
export type ModelPriceTiersEntry = z.infer<typeof modelPriceTiersEntrySchema>

export type ModelPriceTiers = Record<string, ModelPriceTiersEntry>

export const PRICE_TIERS_EXAMPLE = '{"claude-sonnet-4-5": {"tiers": [{"above_prompt_tokens": 200000, "model_ratio": 3}], "minimum_quota": 10}}'
