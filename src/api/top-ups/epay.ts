/**
 * The epay ("彩虹易支付" V1, `submit.php`) MD5 protocol: the order form Ferry hands the payer's
 * browser, and the check of the payment service's notify call.
 *
 * Signature: every parameter except `sign`, `sign_type` and empty values, sorted by key (byte
 * order), joined as `k1=v1&k2=v2`, the merchant key appended directly, MD5, lowercase hex.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { EPAY_TRADE_SUCCESS, type EpayForm } from '@shared/top-up'

const EPAY_SIGN_TYPE = 'MD5'

/** The text that is hashed, without the key. */
export function epaySigningText(parameters: Record<string, string>): string {
	return Object.keys(parameters)
		.filter((key) => key !== 'sign' && key !== 'sign_type' && parameters[key] !== '' && parameters[key] !== undefined)
		.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0))
		.map((key) => `${key}=${parameters[key]}`)
		.join('&')
}

export function epaySign(parameters: Record<string, string>, merchantKey: string): string {
	return createHash('md5').update(epaySigningText(parameters) + merchantKey, 'utf8').digest('hex')
}

/** Constant-time comparison of a received signature with the expected one. */
export function hasValidEpaySignature(parameters: Record<string, string>, merchantKey: string): boolean {
	const received = Buffer.from((parameters.sign ?? '').toLowerCase(), 'utf8')
	const expected = Buffer.from(epaySign(parameters, merchantKey), 'utf8')
	return received.length === expected.length && timingSafeEqual(received, expected)
}

interface EpayOrder {
	merchantId: string
	merchantKey: string
	paymentMethod: string
	tradeNo: string
	/** Shown by the payment service, e.g. `TUC10`. */
	name: string
	/** Two decimals. */
	money: string
	notifyUrl: string
	returnUrl: string
}

/** The signed form fields of `submit.php`. */
export function epayOrderForm(order: EpayOrder): EpayForm {
	const fields: Record<string, string> = {
		pid: order.merchantId,
		type: order.paymentMethod,
		out_trade_no: order.tradeNo,
		notify_url: order.notifyUrl,
		return_url: order.returnUrl,
		name: order.name,
		money: order.money,
	}
	return { ...fields, sign: epaySign(fields, order.merchantKey), sign_type: EPAY_SIGN_TYPE }
}

/** The fields of a notify call Ferry acts on, once its signature and merchant were checked. */
interface EpayNotice {
	tradeNo: string
	serviceTradeNo: string
	paymentMethod: string
	money: string
}

type EpayNoticeCheck = { ok: true; notice: EpayNotice } | { ok: false; reason: string }

/** Checks a notify call's parameters: signature, merchant id and a successful trade. */
export function readEpayNotice(parameters: Record<string, string>, merchantId: string, merchantKey: string): EpayNoticeCheck {
	if (!merchantKey || !merchantId) return { ok: false, reason: 'online top-up is not configured' }
	if (!hasValidEpaySignature(parameters, merchantKey)) return { ok: false, reason: 'bad signature' }
	if (parameters.pid !== merchantId) return { ok: false, reason: 'another merchant id' }
	if (parameters.trade_status !== EPAY_TRADE_SUCCESS) return { ok: false, reason: 'trade not successful' }
	if (!parameters.out_trade_no || !parameters.money) return { ok: false, reason: 'missing trade number or money' }
	return {
		ok: true,
		notice: { tradeNo: parameters.out_trade_no, serviceTradeNo: parameters.trade_no ?? '', paymentMethod: parameters.type ?? '', money: parameters.money },
	}
}
