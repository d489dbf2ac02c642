/**
 * The price stage: what the call costs and how much its hold takes. The model's pricing in the
 * call's group (or free, in self-use mode, for a model without one; a 400 otherwise), per image
 * for a fixed-price image call, per second for a video; the prompt as the tokenizer counts it; and the hold: the prompt's
 * estimate plus the completion the call may generate (`max_tokens`, else `PreConsumedQuota`; none
 * for endpoints that generate no tokens). Nothing is held here (hold.ts).
 */
import type { Dependencies } from '@/dependencies'
import { holdFor, resolvePricing, type Pricing } from '@/billing/price'
import { estimatePrompt, type PromptRequest } from '@/billing/tokenizer'
import { relayErrors } from '../errors'
import { generatesNoTokens, imageCallRatio, isImageEndpoint, isMediaEndpoint, mediaPromptTexts } from '../formats/media/requests'
import { rerankInput } from '../formats/rerank'
import { videoCallRatio } from '../formats/videos/requests'
import type { RelayEndpoint } from '../providers/types'
import type { AdmittedCall, PricedCall } from './call'

/** Self-use mode lets unpriced models through at no cost. */
export const FREE: Pricing = { kind: 'per_token', modelRatio: 0, completionRatio: 1, cacheRatio: 1, createCacheRatio: 1, groupRatio: 1 }

/**
 * The model's pricing in the call's group: its ModelPrice or ratios, FREE for an unpriced model in
 * self-use mode, else a 400. Async tasks are priced here too (relay/tasks/submission.ts).
 */
export function pricingOf({ options }: Pick<Dependencies, 'options'>, call: { model: string; group: string; caller: { user: { group: string } } }): Pricing {
	const found = resolvePricing(options, call.model, call.caller.user.group, call.group) ?? (options.get('SelfUseModeEnabled') ? FREE : undefined)
	if (!found) throw relayErrors.modelUnpriced(call.model)
	return found
}

function promptOf(endpoint: RelayEndpoint, body: Record<string, unknown>): PromptRequest {
	if (endpoint === 'chat') return { endpoint, messages: body.messages as never[], tools: body.tools }
	if (endpoint === 'rerank') return { endpoint, input: rerankInput(body) }
	if (isMediaEndpoint(endpoint)) return { endpoint: 'media', input: mediaPromptTexts(endpoint, body) }
	if (endpoint === 'videos') return { endpoint: 'media', input: typeof body.prompt === 'string' ? [body.prompt] : [] }
	return { endpoint, input: endpoint === 'completions' ? body.prompt : body.input }
}

/** Embeddings, rerank, speech and moderations generate no tokens: the hold covers the prompt alone. */
function completionAllowance(dependencies: Dependencies, endpoint: RelayEndpoint, body: Record<string, unknown>) {
	if (endpoint === 'embeddings' || endpoint === 'rerank' || endpoint === 'videos' || (isMediaEndpoint(endpoint) && generatesNoTokens(endpoint))) return 0
	const limit = body.max_completion_tokens ?? body.max_tokens
	return typeof limit === 'number' && limit > 0 ? limit : dependencies.options.get('PreConsumedQuota')
}

export function price(dependencies: Dependencies, call: AdmittedCall): PricedCall {
	const { options } = dependencies
	const { model, group } = call
	const { endpoint, body } = call.request
	const found = pricingOf(dependencies, call)
	// A fixed-price image call is charged per image, times the size/quality factor; a video per
	// second of its requested length (ModelPrice is USD a second), times its size factor.
	if (endpoint === 'videos' && found.kind !== 'per_call' && found !== FREE) throw relayErrors.videoPricedPerSecond(model)
	const pricing: Pricing = found.kind !== 'per_call' ? found
		: isImageEndpoint(endpoint) ? { ...found, callRatio: imageCallRatio(model, body) }
		: endpoint === 'videos' ? { ...found, callRatio: videoCallRatio(body) }
		: found
	const prompt = promptOf(endpoint, body)
	const priced = call as PricedCall
	priced.pricing = pricing
	priced.prompt = prompt
	priced.holdAmount = holdFor(pricing, estimatePrompt(prompt), completionAllowance(dependencies, endpoint, body), options.get('QuotaPerUnit'))
	return priced
}
