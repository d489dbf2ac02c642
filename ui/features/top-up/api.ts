/** The wallet's calls (docs/specification/tokens-and-money.md#calls): redeem a code, price and start an online top-up, the caller's records. */
import type { Page } from '@shared/api'
import type { EpayForm, TopUpView } from '@shared/top-up'
import type { Api, Envelope } from '@ui/lib/api'

export type { TopUpView }

/** Answers the quota the code added. */
export const redeemCode = (api: Api, key: string) => api.post<number>('/api/user/topup', { key })

/** Answers the money to pay, as text with two decimals; with a method, its own minimum applies too. */
export const fetchPayableAmount = (api: Api, amount: number, paymentMethod?: string) =>
	api.post<string>('/api/user/amount', { amount, top_up_code: '', ...(paymentMethod ? { payment_method: paymentMethod } : {}) })

/** Answers the order form to submit to the payment service, and its `url` (next to `data`). */
export const startPayment = (api: Api, amount: number, paymentMethod: string) =>
	api.post<EpayForm>('/api/user/pay', { amount, top_up_code: '', payment_method: paymentMethod }) as Promise<Envelope<EpayForm> & { url?: string }>

/** The caller's latest records; `tradeNo` finds one (the payment service's return). */
export function listTopUps(api: Api, { pageSize, tradeNo = '' }: { pageSize: number; tradeNo?: string }) {
	const query = new URLSearchParams({ p: '1', page_size: String(pageSize) })
	if (tradeNo) query.set('trade_no', tradeNo)
	return api.get<Page<TopUpView>>(`/api/user/topup/self?${query}`)
}
