import type { LoaderFunctionArgs } from 'react-router'
import type { UserView } from '@shared/user'
import { listTopUps, type TopUpView } from '@ui/features/top-up/api'
import { apiContext } from '@ui/lib/api'
import { requireSelf } from '@ui/lib/session'

export { TopUpPage as Component } from '@ui/features/top-up/top-up-page'

/** How many of the latest records the wallet lists. */
const RECENT_TOP_UPS = 10

export type TopUpPageData = {
	user: UserView
	records: TopUpView[]
	/**
	 * Set when the payment service sent the payer back (`?out_trade_no=`): the order as Ferry
	 * recorded it, or null when the caller has no such order. The query's own status is never used.
	 */
	returned: { tradeNo: string; record: TopUpView | null } | null
}

/** The balance is read fresh on every visit and after a redemption (revalidation re-runs this). */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<TopUpPageData> {
	const api = context.get(apiContext)
	const user = await requireSelf(api)
	const tradeNo = new URL(request.url).searchParams.get('out_trade_no')?.trim().slice(0, 64) ?? ''
	const [recent, found] = await Promise.all([
		listTopUps(api, { pageSize: RECENT_TOP_UPS }).catch(() => undefined),
		tradeNo ? listTopUps(api, { pageSize: 1, tradeNo }).catch(() => undefined) : undefined,
	])
	return {
		user,
		records: recent?.success ? recent.data.items : [],
		returned: tradeNo ? { tradeNo, record: found?.success ? found.data.items[0] ?? null : null } : null,
	}
}
