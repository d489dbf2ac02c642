/** The wallet's online top-up (docs/specification/tokens-and-money.md#the-wallet): states, messages and the shapes of its calls. */
import { z } from 'zod'
import { pageQuerySchema } from './api'
import type { TopUpStatus } from './top-up-constants'
import { TOP_UP_MESSAGES } from './messages/top-ups'

export * from './top-up-constants'

/** Where the payment service sends the payer back, and where it calls Ferry once paid. */
export const TOP_UP_RETURN_PATH = '/topup'
export const EPAY_NOTIFY_PATH = '/api/user/epay/notify'
/** The payment service's order form is submitted (as a hidden POST form) to `<PayAddress>` + this. */
export const EPAY_SUBMIT_PATH = '/submit.php'
/** The notify answers the payment service reads: anything but `success` makes it call again. */
export const EPAY_REPLY = { success: 'success', fail: 'fail' } as const
export const EPAY_TRADE_SUCCESS = 'TRADE_SUCCESS'

export { TOP_UP_MESSAGES }

const amount = z.number({ error: TOP_UP_MESSAGES.amountNotInteger })
	.int(TOP_UP_MESSAGES.amountNotInteger)
	.max(Number.MAX_SAFE_INTEGER, TOP_UP_MESSAGES.amountNotInteger)

/** `POST /api/user/amount`: the amount in the display unit (dollars, or quota when not shown in currency). */
export const topUpAmountSchema = z.object({
	amount,
	/** Accepted for the peers' clients; Ferry has no top-up codes. */
	top_up_code: z.string().optional(),
	/** The method the payer chose, when known: its own minimum (PayMethods' `min_topup`) then applies too. */
	payment_method: z.string().trim().max(64, TOP_UP_MESSAGES.paymentMethodNotAllowed).optional(),
})
export type TopUpAmountInput = z.infer<typeof topUpAmountSchema>

/** `POST /api/user/pay`: as above, plus one of the `type`s of PayMethods. */
export const topUpPaySchema = topUpAmountSchema.extend({
	payment_method: z.string({ error: TOP_UP_MESSAGES.paymentMethodRequired }).trim().min(1, TOP_UP_MESSAGES.paymentMethodRequired).max(64, TOP_UP_MESSAGES.paymentMethodNotAllowed),
})
export type TopUpPayInput = z.infer<typeof topUpPaySchema>

/** The order form the page submits to the payment service: every field a string, `sign` last. */
export type EpayForm = Record<string, string>

/** `POST /api/user/pay` answers the envelope with `url` next to `data`. */
export type TopUpPayAnswer = { success: true; message: string; data: EpayForm; url: string }

/** `GET /api/user/topup/self`: paged, newest first; `trade_no` finds one record (the return page). */
export const topUpListQuerySchema = pageQuerySchema.extend({
	trade_no: z.string().trim().max(64).optional().default(''),
})
export type TopUpListQuery = z.infer<typeof topUpListQuerySchema>

export type TopUpView = {
	id: number
	/** As entered, in dollars (units of QuotaPerUnit quota). */
	amount: number
	/** What the payer pays, in the payment service's currency. */
	money: number
	trade_no: string
	payment_method: string
	create_time: number
	complete_time: number
	status: TopUpStatus
	/** An order for a plan (its id) rather than for quota (then `amount` is 0); 0 for a top-up. */
	plan_id: number
}
