/**
 * The cost side of a call: what the operator pays the upstream for it, in quota, recorded beside
 * the charge (never moving a balance). A channel knows its cost as
 *   - per-model cost prices (`model_cost`: USD per million input, cached-input, cache-write and
 *     output tokens, or USD per call), which win for the models they name, else
 *   - `cost_ratio`: a multiple of the model's list price before group ratios (0.5: the operator
 *     pays half of what the price list says), else
 *   - nothing: the cost is unknown (null in the log, counted apart in the margin report).
 */
import type { ChannelCost } from '@shared/channel-cost'
import { listPriceOf, roundQuota, type Pricing, type Usage } from './price'

const PER_MILLION = 1_000_000

const price = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0)

/** What the call cost the operator in quota, rounded half away from zero; undefined when the channel's cost is unknown. */
export function costOfCall(cost: ChannelCost, model: string, pricing: Pricing, usage: Usage, quotaPerUnit: number): number | undefined {
	const exact = exactCost(cost, model, pricing, usage, quotaPerUnit)
	return exact === undefined ? undefined : roundQuota(exact)
}

/**
 * What the channel would cost the operator for a call of `model` of 1 000 prompt and 1 000
 * completion tokens (one call, for a model priced per call), in quota, unrounded: how the
 * `least_cost` routing policy compares channels. `pricing` is the model's (undefined: unpriced, so a
 * channel known only by its `cost_ratio` has no known cost).
 */
export function referenceCost(cost: ChannelCost, model: string, pricing: Pricing | undefined, quotaPerUnit: number): number | undefined {
	if (!pricing && !Object.hasOwn(cost.models, model)) return undefined
	return exactCost(cost, model, pricing ?? UNPRICED, REFERENCE_USAGE, quotaPerUnit)
}

const REFERENCE_USAGE: Usage = { promptTokens: 1_000, completionTokens: 1_000 }
/** Stands in for an unpriced model's pricing where only the channel's own cost prices are read. */
const UNPRICED: Pricing = { kind: 'per_token', modelRatio: 0, completionRatio: 1, cacheRatio: 1, createCacheRatio: 1, groupRatio: 1 }

function exactCost(cost: ChannelCost, model: string, pricing: Pricing, usage: Usage, quotaPerUnit: number): number | undefined {
	const own = Object.hasOwn(cost.models, model) ? cost.models[model] : undefined
	if (own) {
		if (own.per_call !== undefined) return price(own.per_call) * (pricing.kind === 'per_call' ? pricing.callRatio ?? 1 : 1) * quotaPerUnit
		const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens)
		const written = Math.min(usage.cacheCreationTokens ?? 0, usage.promptTokens - cached)
		const input = price(own.input)
		const dollars = (usage.promptTokens - cached - written) * input + cached * (own.cache_read === undefined ? input : price(own.cache_read))
			+ written * (own.cache_write === undefined ? input : price(own.cache_write)) + usage.completionTokens * price(own.output)
		return (dollars / PER_MILLION) * quotaPerUnit
	}
	if (cost.ratio === undefined) return undefined
	return listPriceOf(pricing, usage, quotaPerUnit) * cost.ratio
}
