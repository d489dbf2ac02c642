/** The drawer's values as typed, and their check before they are sent (docs/specification/tokens-and-money.md#redemption-codes). */
import { MAX_QUOTA } from '@shared/quota-limit'
import { REDEMPTION_CREATE_MAX_COUNT, REDEMPTION_DEFAULT_COUNT, REDEMPTION_DEFAULT_QUOTA, REDEMPTION_NAME_MAX_LENGTH } from '@shared/redemption-constants'
import type { RedemptionView } from '@shared/redemption'
import { quotaFromDisplay, renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'
import { quotaToDisplay } from '@ui/lib/format'

type QuotaDisplay = Pick<Status, 'display_in_currency' | 'quota_per_unit'>

export type RedemptionFormValues = {
	name: string
	/** In the display unit: dollars when the server shows currency, else quota units. */
	quota: string
	count: string
}

export type FormProblem = { message: string; values?: Record<string, string | number> }

export const formMessages = {
	nameTooLong: '名称不能超过 {max} 个字符',
	nameRequired: '请输入名称',
	quotaInvalid: '请输入大于 0 的有效额度',
	quotaTooLarge: '额度不能超过 {max}',
	countInvalid: '数量必须是 1 到 {max} 之间的整数',
} as const

export function newRedemptionValues(status: QuotaDisplay): RedemptionFormValues {
	return { name: '', quota: quotaToDisplay(REDEMPTION_DEFAULT_QUOTA, status), count: String(REDEMPTION_DEFAULT_COUNT) }
}

export function redemptionValues(code: RedemptionView, status: QuotaDisplay): RedemptionFormValues {
	return { name: code.name, quota: quotaToDisplay(code.quota, status), count: '1' }
}

type Checked<Value> = { value: Value; problem?: undefined } | { value?: undefined; problem: FormProblem }

/**
 * Name, quota (in quota units) and, when creating, count. An empty name on create becomes the
 * quota as the page shows it, the name the server would give it too, so the download can use it.
 */
export function readRedemptionFields(values: RedemptionFormValues, status: QuotaDisplay, creating: boolean): Checked<{ name: string; quota: number; count: number }> {
	const amount = Number(values.quota.trim())
	const quota = values.quota.trim() === '' || !Number.isFinite(amount) ? Number.NaN : quotaFromDisplay(amount, status)
	if (!Number.isSafeInteger(quota) || quota < 1 || (!status.display_in_currency && !Number.isInteger(amount))) {
		return { problem: { message: formMessages.quotaInvalid } }
	}
	if (quota > MAX_QUOTA) return { problem: { message: formMessages.quotaTooLarge, values: { max: renderQuota(MAX_QUOTA, status) } } }
	const typed = values.name.trim()
	if (!typed && !creating) return { problem: { message: formMessages.nameRequired } }
	const name = typed || renderQuota(quota, status)
	if (name.length > REDEMPTION_NAME_MAX_LENGTH) return { problem: { message: formMessages.nameTooLong, values: { max: REDEMPTION_NAME_MAX_LENGTH } } }
	const count = creating ? Number(values.count.trim()) : 1
	if (!Number.isInteger(count) || count < 1 || count > REDEMPTION_CREATE_MAX_COUNT) {
		return { problem: { message: formMessages.countInvalid, values: { max: REDEMPTION_CREATE_MAX_COUNT } } }
	}
	return { value: { name, quota, count } }
}
