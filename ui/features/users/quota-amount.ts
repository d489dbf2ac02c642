/**
 * The user editor's amounts in the site's one money unit: dollars when the server shows currency
 * (any number of cents, `-0.5` for a deduction), else whole quota units. Read into quota units.
 */
import { MAX_QUOTA } from '@shared/quota-limit'
import { quotaFromDisplay, renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'

type QuotaDisplay = Pick<Status, 'display_in_currency' | 'quota_per_unit'>

export const quotaAmountMessages = {
	notNumber: '额度必须是数字',
	notInteger: '额度必须是整数',
	negative: '剩余额度不能为负数',
	tooLarge: '额度不能超过 {max}',
} as const

export type QuotaAmountProblem = { message: string; values?: Record<string, string> }

/** A typed amount (a balance, or with `signed` a change to one) in quota units, or what is wrong with it. */
export function readQuotaAmount(text: string, status: QuotaDisplay, { signed = false } = {}): { quota: number } | { problem: QuotaAmountProblem } {
	const trimmed = text.trim()
	const amount = Number(trimmed)
	if (trimmed === '' || !Number.isFinite(amount)) return { problem: { message: quotaAmountMessages.notNumber } }
	if (!status.display_in_currency && !Number.isInteger(amount)) return { problem: { message: quotaAmountMessages.notInteger } }
	if (!signed && amount < 0) return { problem: { message: quotaAmountMessages.negative } }
	const quota = quotaFromDisplay(amount, status)
	if (Math.abs(quota) > MAX_QUOTA) return { problem: { message: quotaAmountMessages.tooLarge, values: { max: renderQuota(MAX_QUOTA, status) } } }
	return { quota }
}
