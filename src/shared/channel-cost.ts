/**
 * A channel's cost side: `cost_ratio` (what the operator pays, as a multiple of the model's list
 * price before group ratios; empty: unknown) and `model_cost`, per-model cost prices in USD:
 *   {"gpt-4o": {"input": 2.5, "output": 10, "cache_read": 1.25}, "dall-e-3": {"per_call": 0.04}}
 * (per million tokens, or per call). Negative numbers are refused.
 */
import { z } from 'zod'
import { MAX_COST_PRICE } from './channel-cost-constants'

export * from './channel-cost-constants'

const usd = z.number().min(0).max(MAX_COST_PRICE)

export const modelCostSchema = z.strictObject({
	input: usd.optional(),
	output: usd.optional(),
	cache_read: usd.optional(),
	cache_write: usd.optional(),
	per_call: usd.optional(),
})
export type ModelCost = z.infer<typeof modelCostSchema>

export const modelCostsSchema = z.record(z.string().min(1), modelCostSchema)

/** A channel's cost as the relay uses it. */
export interface ChannelCost {
	/** Undefined: unknown. */
	ratio: number | undefined
	models: Readonly<Record<string, ModelCost>>
}
