/**
 * Paying for a plan online, like a top-up (top-ups/service.ts): the order records the plan, the
 * money is the plan's price in dollars (`QuotaPerUnit` quota each) × `Price` × the user's
 * `TopupGroupRatio`, and the payment service's notify grants the plan once (the trade number is
 * the grant's reference) instead of crediting quota. The order records the plan's terms as they
 * are when it is opened, and the notify grants those: an admin who edits the plan while the payer
 * is paying changes nothing of what was sold.
 */
import type { EpayForm } from '@shared/top-up'
import { EPAY_NOTIFY_PATH, EPAY_SUBMIT_PATH, TOP_UP_MESSAGES, TOP_UP_RETURN_PATH, TOP_UP_STATUS } from '@shared/top-up'
import type { Dependencies } from '@/dependencies'
import type { UserRecord } from '@/db/stores/users'
import { nowSeconds } from '@/lib/clock'
import { writePlanTerms } from '@/billing/subscriptions'
import { refused } from '../errors'
import { epayOrderForm } from '../top-ups/epay'
import { assertOnlineTopUp, newTradeNo, roundMoney } from '../top-ups/service'
import { planOnSale } from './service'

/** `POST /api/plan/:id/pay`: records a pending order for the plan and answers the signed form and where to send it. */
export async function startPlanPayment(dependencies: Dependencies, user: Pick<UserRecord, 'id' | 'group'>, planId: number, paymentMethod: string): Promise<{ form: EpayForm; url: string }> {
	const { options, store } = dependencies
	assertOnlineTopUp(options)
	const plan = await planOnSale(store, planId)
	if (!options.get('PayMethods').some((method) => method.type === paymentMethod)) throw refused(TOP_UP_MESSAGES.paymentMethodNotAllowed)
	const ratios = options.get('TopupGroupRatio')
	const groupRatio = Object.hasOwn(ratios, user.group) ? ratios[user.group]! : 1
	const money = roundMoney((plan.price / options.get('QuotaPerUnit')) * options.get('Price') * groupRatio)
	if (money < 0.01) throw refused(TOP_UP_MESSAGES.amountTooLow)
	const tradeNo = newTradeNo(user.id)
	const { topUps } = store.tables
	await store.db.insert(topUps).values({
		userId: user.id, amount: 0, money, tradeNo, paymentMethod, status: TOP_UP_STATUS.pending, createTime: nowSeconds(), planId: plan.id, planTerms: writePlanTerms(plan),
	})
	const serverAddress = options.get('ServerAddress')
	const form = epayOrderForm({
		merchantId: options.get('EpayId'),
		merchantKey: options.get('EpayKey'),
		paymentMethod,
		tradeNo,
		name: `PLAN${plan.id}`,
		money: money.toFixed(2),
		notifyUrl: `${options.get('CustomCallbackAddress') || serverAddress}${EPAY_NOTIFY_PATH}`,
		returnUrl: `${serverAddress}${TOP_UP_RETURN_PATH}`,
	})
	return { form, url: `${options.get('PayAddress')}${EPAY_SUBMIT_PATH}` }
}
