/** The plan editor's values as typed, and their check before they are sent (the server checks them too). */
import {
	PLAN_DURATION_SECONDS_MAX, PLAN_NAME_MAX_LENGTH, PLAN_WINDOW_SECONDS_MAX, PLAN_WINDOW_SECONDS_MIN, PLAN_WINDOWS_MAX, PLAN_WINDOWS_MIN,
} from '@shared/plan-constants'
import type { CreatePlanInput, PlanView, PlanWindowInput } from '@shared/plan'
import { MAX_QUOTA } from '@shared/quota-limit'
import { quotaFromDisplay, quotaToDisplay, renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'
import type { FormProblem } from '@ui/lib/use-form-problem'
import { splitLength } from '@ui/features/plans/plan-display'

type QuotaDisplay = Pick<Status, 'display_in_currency' | 'quota_per_unit'>

/** A length as typed: an amount of a unit (seconds in it). */
export type LengthValue = { amount: string; unit: number }

export type PlanFormValues = {
	name: string
	/** In the display unit: dollars when the server shows currency, else quota units. */
	price: string
	duration: LengthValue
	windows: { length: LengthValue; quota: string }[]
	/** Comma-separated; empty for every model. */
	models: string
	group: string
	enabled: boolean
}

export const planFormMessages = {
	nameRequired: '请输入套餐名称',
	nameTooLong: '套餐名称不能超过 {max} 个字符',
	priceInvalid: '价格须为不小于 0 的数字',
	durationInvalid: '有效期须为 1 分钟到 10 年之间的整数',
	windowCount: '套餐须有 {min} 到 {max} 个用量窗口',
	windowLength: '窗口 {index} 的时长须为 1 分钟到 366 天之间的整数',
	windowQuota: '窗口 {index} 的额度须大于 0',
	durationShorterThanWindow: '有效期不能短于最长的用量窗口',
	quotaTooLarge: '额度不能超过 {max}',
} as const

const DAY = 24 * 60 * 60
const HOUR = 60 * 60

export function newPlanValues(status: QuotaDisplay): PlanFormValues {
	return {
		name: '',
		price: quotaToDisplay(0, status),
		duration: { amount: '30', unit: DAY },
		windows: [{ length: { amount: '5', unit: HOUR }, quota: '' }],
		models: '',
		group: '',
		enabled: true,
	}
}

export function planValues(plan: PlanView, status: QuotaDisplay): PlanFormValues {
	return {
		name: plan.name,
		price: quotaToDisplay(plan.price, status),
		duration: splitLength(plan.duration_seconds),
		windows: plan.windows.map((window) => ({ length: splitLength(window.seconds), quota: quotaToDisplay(window.quota, status) })),
		models: plan.models.join(','),
		group: plan.group,
		enabled: plan.enabled,
	}
}

type Checked<Value> = { value: Value; problem?: undefined } | { value?: undefined; problem: FormProblem }

const lengthOf = (length: LengthValue) => {
	const amount = Number(length.amount.trim())
	return length.amount.trim() !== '' && Number.isInteger(amount) && amount > 0 ? amount * length.unit : Number.NaN
}

function quotaOf(text: string, status: QuotaDisplay): number {
	const amount = Number(text.trim())
	if (text.trim() === '' || !Number.isFinite(amount)) return Number.NaN
	return quotaFromDisplay(amount, status)
}

/** The plan's terms from the form, or the first problem to show. */
export function readPlanFields(values: PlanFormValues, status: QuotaDisplay): Checked<CreatePlanInput> {
	const name = values.name.trim()
	if (!name) return { problem: { message: planFormMessages.nameRequired, fields: ['name'] } }
	if (name.length > PLAN_NAME_MAX_LENGTH) return { problem: { message: planFormMessages.nameTooLong, values: { max: PLAN_NAME_MAX_LENGTH }, fields: ['name'] } }
	const price = quotaOf(values.price, status)
	if (!Number.isSafeInteger(price) || price < 0) return { problem: { message: planFormMessages.priceInvalid, fields: ['price'] } }
	if (price > MAX_QUOTA) return { problem: { message: planFormMessages.quotaTooLarge, values: { max: renderQuota(MAX_QUOTA, status) }, fields: ['price'] } }
	const duration = lengthOf(values.duration)
	if (!(duration >= PLAN_WINDOW_SECONDS_MIN && duration <= PLAN_DURATION_SECONDS_MAX)) return { problem: { message: planFormMessages.durationInvalid, fields: ['duration'] } }
	if (values.windows.length < PLAN_WINDOWS_MIN || values.windows.length > PLAN_WINDOWS_MAX) {
		return { problem: { message: planFormMessages.windowCount, values: { min: PLAN_WINDOWS_MIN, max: PLAN_WINDOWS_MAX } } }
	}
	const windows: PlanWindowInput[] = []
	for (const [position, window] of values.windows.entries()) {
		const index = position + 1
		const seconds = lengthOf(window.length)
		if (!(seconds >= PLAN_WINDOW_SECONDS_MIN && seconds <= PLAN_WINDOW_SECONDS_MAX)) return { problem: { message: planFormMessages.windowLength, values: { index }, fields: [`window-${position}-length`] } }
		const quota = quotaOf(window.quota, status)
		if (!Number.isSafeInteger(quota) || quota < 1) return { problem: { message: planFormMessages.windowQuota, values: { index }, fields: [`window-${position}-quota`] } }
		if (quota > MAX_QUOTA) return { problem: { message: planFormMessages.quotaTooLarge, values: { max: renderQuota(MAX_QUOTA, status) }, fields: [`window-${position}-quota`] } }
		windows.push({ seconds, quota })
	}
	if (duration < Math.max(...windows.map((window) => window.seconds))) return { problem: { message: planFormMessages.durationShorterThanWindow, fields: ['duration'] } }
	const models = [...new Set(values.models.split(',').map((model) => model.trim()).filter(Boolean))]
	return { value: { name, price, duration_seconds: duration, windows, models, group: values.group.trim(), enabled: values.enabled } }
}
