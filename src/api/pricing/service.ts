/**
 * The public price list (docs/specification/pricing.md#the-pricing-page `GET /api/pricing`): every model some enabled channel serves,
 * priced exactly as billing prices it (`resolvePricing`: a fixed `ModelPrice` wins over ratios),
 * with the groups that serve it and the group ratios and usable groups of the caller.
 */
import { eq } from 'drizzle-orm'
import { type PricingAnswer, type PricingEntry, QUOTA_TYPE } from '@shared/pricing'
import type { Dependencies } from '@/dependencies'
import { groupRatio, resolvePricing } from '@/billing/price'
import { usableGroups } from '@/billing/groups'
import type { UserRecord } from '@/db/stores/users'

type PriceList = Omit<PricingAnswer, 'success' | 'message'>

/** Model → the groups with an enabled ability (the materialised routing table) for it. */
async function servedModels({ store }: Dependencies): Promise<Map<string, string[]>> {
	const { abilities } = store.tables
	const found = await store.db.selectDistinct({ model: abilities.model, group: abilities.group }).from(abilities).where(eq(abilities.enabled, true))
	const served = new Map<string, string[]>()
	for (const { model, group } of found) served.set(model, [...served.get(model) ?? [], group])
	return served
}

/**
 * A model without any price is left out: the relay refuses to serve it (unless the self-use mode
 * makes every unpriced model free, in which case it is listed at ratio 0).
 */
function entryFor(dependencies: Dependencies, model: string, groups: string[]): PricingEntry | undefined {
	const enableGroups = [...groups].sort()
	const pricing = resolvePricing(dependencies.options, model, '', '')
	if (pricing?.kind === 'per_call') {
		return { model_name: model, quota_type: QUOTA_TYPE.perCall, model_ratio: 0, model_price: pricing.modelPrice, completion_ratio: 0, enable_groups: enableGroups }
	}
	if (pricing) {
		return {
			model_name: model, quota_type: QUOTA_TYPE.byTokens, model_ratio: pricing.modelRatio, model_price: 0, completion_ratio: pricing.completionRatio, enable_groups: enableGroups,
			...(pricing.tiers ? { tiers: pricing.tiers } : {}),
		}
	}
	if (!dependencies.options.get('SelfUseModeEnabled')) return undefined
	return { model_name: model, quota_type: QUOTA_TYPE.byTokens, model_ratio: 0, model_price: 0, completion_ratio: 0, enable_groups: enableGroups }
}

/** For a signed-in `user` the group ratios are the ones billing applies to them (`GroupGroupRatio`). */
export async function priceList(dependencies: Dependencies, user: UserRecord | undefined): Promise<PriceList> {
	const { options } = dependencies
	const served = await servedModels(dependencies)
	const data = [...served.keys()].sort()
		.map((model) => entryFor(dependencies, model, served.get(model)!))
		.filter((entry) => entry !== undefined)
	const usable: Record<string, string> = {}
	if (user) {
		for (const [group, { desc }] of Object.entries(usableGroups(dependencies.options, user))) usable[group] = desc
	} else {
		Object.assign(usable, options.get('UserUsableGroups'))
	}
	const groups = new Set([...Object.keys(options.get('GroupRatio')), ...Object.keys(usable), ...data.flatMap((entry) => entry.enable_groups)])
	const ratios: Record<string, number> = {}
	for (const group of [...groups].sort()) ratios[group] = groupRatio(options, user?.group ?? '', group)
	return { data, group_ratio: ratios, usable_group: usable }
}
