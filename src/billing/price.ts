/**
 * What a call costs (docs/specification/pricing.md#the-price-of-a-call, docs/specification/pricing.md#the-pricing-page). A model with a fixed `ModelPrice` costs
 * price × group ratio × QuotaPerUnit per call; otherwise tokens are priced by ratios:
 *   (uncached prompt + cached × CacheRatio + cache writes × CreateCacheRatio
 *    + completion × CompletionRatio) × ModelRatio × group ratio.
 * Audio tokens (part of prompt and completion, as OpenAI reports them) are priced by the model's
 * `AudioRatio` instead of plain input, and audio output by `AudioRatio × AudioCompletionRatio`
 * (both 1 when unset). A per-call price may be multiplied by a call ratio: images charge
 * n × the size/quality factor per call.
 * Rounded half away from zero; a priced call with tokens never costs 0; zero usage costs 0.
 * `ModelPriceTiers` may set other ratios for prompts above a threshold, a ratio for 1-hour cache
 * writes and a minimum charge (shared/price-tiers.ts). No price is above MAX_QUOTA (see `capped`).
 */
import { MAX_QUOTA } from '@shared/quota-limit'
import type { ModelPriceTiersEntry, PriceTier } from '@shared/price-tiers'
import type { OptionStore } from '@/db/stores/options'

export type Pricing =
	| {
		kind: 'per_call'; modelPrice: number; groupRatio: number
		/** Multiplies the price: for images, the number of images × the size/quality factor; 1 when absent. */
		callRatio?: number
	}
	| {
		kind: 'per_token'; modelRatio: number; completionRatio: number; cacheRatio: number; createCacheRatio: number; groupRatio: number
		/** Audio input tokens' price relative to text input; 1 when absent. */
		audioRatio?: number
		/** Audio output tokens' price relative to audio input; 1 when absent. */
		audioCompletionRatio?: number
		/** `ModelPriceTiers`: other ratios above a prompt threshold, 1-hour cache writes, a minimum charge. */
		tiers?: ModelPriceTiersEntry
	}

export interface Usage {
	promptTokens: number
	completionTokens: number
	/** Prompt tokens read from the provider's cache; part of `promptTokens` (OpenAI's convention). */
	cachedTokens?: number
	/** Prompt tokens written to the provider's cache; part of `promptTokens`. */
	cacheCreationTokens?: number
	/** The cache writes kept for an hour (Claude's `ephemeral_1h_input_tokens`); part of `cacheCreationTokens`. */
	cacheCreation1hTokens?: number
	/** Prompt tokens that are audio; part of `promptTokens`. */
	audioPromptTokens?: number
	/** Completion tokens that are audio; part of `completionTokens`. */
	audioCompletionTokens?: number
}

/** Cache writes cost a quarter more than plain input unless `CreateCacheRatio` says otherwise. */
const DEFAULT_CREATE_CACHE_RATIO = 1.25

/** `GroupGroupRatio[userGroup][usingGroup]` when set, else `GroupRatio[usingGroup]`, else 1. */
export function groupRatio(options: OptionStore, userGroup: string, usingGroup: string): number {
	return options.get('GroupGroupRatio')[userGroup]?.[usingGroup] ?? options.get('GroupRatio')[usingGroup] ?? 1
}

/** Whether the relay will serve a model at all: it has a price, or self-use mode lets unpriced models through. */
export function isCallable(options: OptionStore, model: string): boolean {
	return options.get('SelfUseModeEnabled') || Object.hasOwn(options.get('ModelPrice'), model) || Object.hasOwn(options.get('ModelRatio'), model)
}

/** The model's price in the using group, or undefined when the model has none. */
export function resolvePricing(options: OptionStore, model: string, userGroup: string, usingGroup: string): Pricing | undefined {
	const group = groupRatio(options, userGroup, usingGroup)
	// Own keys only: a model named `constructor` has no price.
	const prices = options.get('ModelPrice')
	if (Object.hasOwn(prices, model)) return { kind: 'per_call', modelPrice: prices[model]!, groupRatio: group }
	const ratios = options.get('ModelRatio')
	if (!Object.hasOwn(ratios, model)) return undefined
	const modelRatio = ratios[model]!
	const tiers = options.get('ModelPriceTiers')
	return {
		kind: 'per_token',
		modelRatio,
		completionRatio: options.get('CompletionRatio')[model] ?? 1,
		cacheRatio: options.get('CacheRatio')[model] ?? 1,
		createCacheRatio: options.get('CreateCacheRatio')[model] ?? DEFAULT_CREATE_CACHE_RATIO,
		groupRatio: group,
		audioRatio: options.get('AudioRatio')[model] ?? 1,
		audioCompletionRatio: options.get('AudioCompletionRatio')[model] ?? 1,
		...(Object.hasOwn(tiers, model) ? { tiers: tiers[model] } : {}),
	}
}

type TokenPricing = Extract<Pricing, { kind: 'per_token' }>

/** The last tier whose threshold the prompt passes, if any. */
function tierFor(pricing: TokenPricing, promptTokens: number): PriceTier | undefined {
	const tiers = pricing.tiers?.tiers
	if (!tiers) return undefined
	let found: PriceTier | undefined
	for (const tier of tiers) if (promptTokens > tier.above_prompt_tokens) found = tier
	return found
}

/** The ratios that apply to a prompt of this size: the base ones, or those its tier sets. */
function atTier(pricing: TokenPricing, promptTokens: number): TokenPricing {
	const tier = tierFor(pricing, promptTokens)
	if (!tier) return pricing
	return {
		...pricing,
		modelRatio: tier.model_ratio ?? pricing.modelRatio,
		completionRatio: tier.completion_ratio ?? pricing.completionRatio,
		cacheRatio: tier.cache_ratio ?? pricing.cacheRatio,
		createCacheRatio: tier.create_cache_ratio ?? pricing.createCacheRatio,
	}
}

/** Half away from zero (Math.round rounds -2.5 to -2). */
export function roundQuota(value: number): number {
	return Math.sign(value) * Math.round(Math.abs(value))
}

/**
 * The option bounds keep every real price far below MAX_QUOTA, the most a balance holds, but the
 * largest bounded values multiplied together pass it (as would a price handed in from elsewhere):
 * such a price is capped there, so the call is refused for want of quota instead of asking the
 * ledger for a hold it cannot take. Not-a-number (0 × ∞) counts as the cap too: never as free.
 */
function capped(quota: number): number {
	return quota >= MAX_QUOTA || Number.isNaN(quota) ? MAX_QUOTA : quota
}

/** The model's list price of the usage (its ratios, no group ratio), unrounded: what a channel's `cost_ratio` multiplies. */
export function listPriceOf(pricing: Pricing, usage: Usage, quotaPerUnit: number): number {
	if (pricing.kind === 'per_call') return pricing.modelPrice * (pricing.callRatio ?? 1) * quotaPerUnit
	if (usage.promptTokens + usage.completionTokens <= 0) return 0
	const priced = atTier(pricing, usage.promptTokens)
	return weightedTokens(priced, usage) * priced.modelRatio
}

export function quotaForUsage(pricing: Pricing, usage: Usage, quotaPerUnit: number): number {
	return capped(uncappedQuota(pricing, usage, quotaPerUnit))
}

function uncappedQuota(pricing: Pricing, usage: Usage, quotaPerUnit: number): number {
	if (pricing.kind === 'per_call') return roundQuota(pricing.modelPrice * pricing.groupRatio * (pricing.callRatio ?? 1) * quotaPerUnit)
	if (usage.promptTokens + usage.completionTokens <= 0) return 0
	const priced = atTier(pricing, usage.promptTokens)
	const quota = roundQuota(weightedTokens(priced, usage) * priced.modelRatio * priced.groupRatio)
	const atLeastOne = quota === 0 && priced.modelRatio * priced.groupRatio > 0 ? 1 : quota
	return Math.max(atLeastOne, pricing.tiers?.minimum_quota ?? 0)
}

/** The usage in prompt-token equivalents at the pricing's ratios (before the model and group ratios). */
function weightedTokens(pricing: TokenPricing, usage: Usage): number {
	const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens)
	const written = Math.min(usage.cacheCreationTokens ?? 0, usage.promptTokens - cached)
	const writtenHour = pricing.tiers?.create_cache_1h_ratio === undefined ? 0 : Math.min(usage.cacheCreation1hTokens ?? 0, written)
	const audioIn = Math.min(usage.audioPromptTokens ?? 0, usage.promptTokens - cached - written)
	const plainPrompt = usage.promptTokens - cached - written - audioIn
	const audioOut = Math.min(usage.audioCompletionTokens ?? 0, usage.completionTokens)
	const audioRatio = pricing.audioRatio ?? 1
	return plainPrompt + cached * pricing.cacheRatio + (written - writtenHour) * pricing.createCacheRatio + writtenHour * (pricing.tiers?.create_cache_1h_ratio ?? 0)
		+ audioIn * audioRatio + (usage.completionTokens - audioOut) * pricing.completionRatio + audioOut * audioRatio * (pricing.audioCompletionRatio ?? 1)
}

/**
 * The hold reserved before the upstream call: the full per-call price, or the estimated prompt
 * plus the completion allowance (`max_tokens`, else `PreConsumedQuota` tokens) priced as output.
 * Never zero, so even a free-looking call proves the user has a balance.
 */
export function holdFor(pricing: Pricing, estimatedPromptTokens: number, completionAllowance: number, quotaPerUnit: number): number {
	if (pricing.kind === 'per_call') return Math.max(1, quotaForUsage(pricing, { promptTokens: 0, completionTokens: 0 }, quotaPerUnit))
	const priced = atTier(pricing, estimatedPromptTokens)
	const quota = capped(Math.ceil((estimatedPromptTokens + completionAllowance * priced.completionRatio) * priced.modelRatio * priced.groupRatio))
	return Math.max(1, quota, pricing.tiers?.minimum_quota ?? 0)
}
