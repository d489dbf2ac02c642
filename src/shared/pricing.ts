/**
 * The public price list (`GET /api/pricing`, docs/specification/pricing.md#the-pricing-page)
 * and the display rules the pricing page applies to it.
 */
import { z } from 'zod'
import { QUOTA_TYPE } from './pricing-constants'
import { modelPriceTiersEntrySchema } from './price-tiers'

export * from './pricing-constants'

export const pricingEntrySchema = z.object({
	model_name: z.string(),
	quota_type: z.union([z.literal(QUOTA_TYPE.byTokens), z.literal(QUOTA_TYPE.perCall)]),
	/** 1 = $2 per million prompt tokens (docs/specification/pricing.md#the-price-of-a-call); 0 for a per-call model. */
	model_ratio: z.number(),
	/** USD per call; 0 for a model billed by tokens. */
	model_price: z.number(),
	completion_ratio: z.number(),
	/** Groups that have an enabled channel serving the model. */
	enable_groups: z.array(z.string()),
	/** `ModelPriceTiers`: other ratios above a prompt threshold, 1-hour cache writes, a minimum charge; absent when none. */
	tiers: modelPriceTiersEntrySchema.optional(),
})
export type PricingEntry = z.infer<typeof pricingEntrySchema>

/** The answer of `GET /api/pricing`: the envelope with two extra top-level fields (docs/specification/pricing.md#the-pricing-page). */
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
