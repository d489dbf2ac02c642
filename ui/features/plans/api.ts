/** The plan calls as the plan page makes them. */
import type { CreatePlanInput, PlanView, SubscriptionView, UpdatePlanInput } from '@shared/plan'
import type { EpayForm } from '@shared/top-up'
import type { Api, Envelope } from '@ui/lib/api'

export type { PlanView, SubscriptionView }

/** The plans on sale; for admins every plan. */
export const listPlans = (api: Api) => api.get<PlanView[]>('/api/plan/')
export const listOwnSubscriptions = (api: Api) => api.get<SubscriptionView[]>('/api/user/self/subscriptions')
export const createPlan = (api: Api, input: CreatePlanInput) => api.post<PlanView>('/api/plan/', input)
export const updatePlan = (api: Api, input: UpdatePlanInput) => api.put<PlanView>('/api/plan/', input)
export const deletePlan = (api: Api, id: number) => api.delete(`/api/plan/${id}`)
/** Pays the price from the wallet; answers the subscription. */
export const purchasePlan = (api: Api, id: number) => api.post<SubscriptionView>(`/api/plan/${id}/purchase`, {})
/** Answers the order form to submit to the payment service, and its `url` (next to `data`). */
export const payPlanOnline = (api: Api, id: number, paymentMethod: string) =>
	api.post<EpayForm>(`/api/plan/${id}/pay`, { payment_method: paymentMethod }) as Promise<Envelope<EpayForm> & { url?: string }>
/** A user's subscriptions, for admins. */
export const listUserSubscriptions = (api: Api, userId: number) => api.get<SubscriptionView[]>(`/api/user/${userId}/subscriptions`)
/** Ends the current period of one window (or all): for admins. */
export const resetWindows = (api: Api, userId: number, subscriptionId: number, window?: number) =>
	api.post<SubscriptionView>(`/api/user/${userId}/subscriptions/${subscriptionId}/reset`, window === undefined ? {} : { window })
