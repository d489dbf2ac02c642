/** What the online top-up calls answer (docs/specification/tokens-and-money.md#online-top-up). */
import { sourceTexts } from './define'

export const TOP_UP_MESSAGE_ENTRIES = {
	/** `{min}` is the minimum in the display unit. */
	amountTooSmall: ['充值数量不能小于 {min}', 'top-up amount cannot be less than {min}'],
	amountNotInteger: ['充值数量必须是整数', 'top-up amount must be a whole number'],
	/** In quota display, an amount must buy whole units of QuotaPerUnit quota (`{unit}`). */
	amountNotWholeUnits: ['充值数量必须是 {unit} 的整数倍', 'top-up amount must be a multiple of {unit}'],
	amountTooLow: ['应付金额过低', 'the payable amount is too low'],
	/** The quota an order would credit does not fit under the balance maximum (`{max}` quota). */
	beyondBalanceLimit: ['无法入账这笔充值：余额不能超过 {max} 额度', 'this top-up cannot be credited: the balance cannot exceed {max} quota'],
	onlineTopUpDisabled: ['管理员未开启在线充值', 'admin has not enabled online top-up'],
	paymentMethodNotAllowed: ['不支持该支付方式', 'payment method not allowed'],
	paymentMethodRequired: ['请选择支付方式', 'please choose a payment method'],
} as const

export const TOP_UP_MESSAGES = /* @__PURE__ */ sourceTexts(TOP_UP_MESSAGE_ENTRIES)
