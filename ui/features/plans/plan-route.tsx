import type { LoaderFunctionArgs } from 'react-router'
import type { PlanView, SubscriptionView } from '@ui/features/plans/api'
import { listOwnSubscriptions, listPlans } from '@ui/features/plans/api'
import { apiContext } from '@ui/lib/api'
import { requireSelf, type UserView } from '@ui/lib/session'

export { PlanPage as Component } from '@ui/features/plans/plan-page'

export type PlanPageData = {
	user: UserView
	/** On sale; for admins every plan (the super admin's list shows them all). */
	plans: PlanView[]
	subscriptions: SubscriptionView[]
	/** The list call's refusal, shown instead of plans. */
	failure: string
}

/** Every signed-in user: their subscriptions with each window's use, and the plans they can buy. */
export async function loader({ context }: LoaderFunctionArgs): Promise<PlanPageData> {
	const api = context.get(apiContext)
	const user = await requireSelf(api)
	const [plans, subscriptions] = await Promise.all([listPlans(api), listOwnSubscriptions(api)])
	return {
		user,
		plans: plans.success ? plans.data : [],
		subscriptions: subscriptions.success ? subscriptions.data : [],
		failure: plans.success ? '' : plans.message,
	}
}
