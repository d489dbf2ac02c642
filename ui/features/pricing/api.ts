/** The pricing call (docs/specification/pricing.md#the-pricing-page), as the pricing page makes it. */
import type { PricingAnswer, PricingEntry } from '@shared/pricing'
import type { Api, Envelope } from '@ui/lib/api'

export type { PricingEntry }

export type PriceList = Omit<PricingAnswer, 'success' | 'message'>

/** `GET /api/pricing`: public; with a session the groups and ratios are the signed-in user's. */
export async function loadPriceList(api: Api): Promise<PriceList> {
	const envelope: Envelope<PricingEntry[]> & Partial<PriceList> = await api.get<PricingEntry[]>('/api/pricing')
	if (!envelope.success) throw new Error(envelope.message)
	return { data: envelope.data ?? [], group_ratio: envelope.group_ratio ?? {}, usable_group: envelope.usable_group ?? {} }
}
