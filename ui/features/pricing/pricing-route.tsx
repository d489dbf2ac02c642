import type { LoaderFunctionArgs } from 'react-router'
import { apiContext } from '@ui/lib/api'
import { loadPriceList, type PriceList } from '@ui/features/pricing/api'

export { PricingPage as Component } from '@ui/features/pricing/pricing-page'

export type PricingPageData = PriceList & {
	/** The call's refusal or failure, shown instead of the table. */
	error: string
}

/** `/pricing` is public: the price list as the visitor (signed in or not) may see it. */
export async function loader({ context }: LoaderFunctionArgs): Promise<PricingPageData> {
	try {
		return { ...await loadPriceList(context.get(apiContext)), error: '' }
	} catch (error) {
		return { data: [], group_ratio: {}, usable_group: {}, error: error instanceof Error ? error.message : String(error) }
	}
}
