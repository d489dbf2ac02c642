/** The editor drawer's values, their checks (docs/specification/tokens-and-money.md#api-tokens) and the request they become. */
import { MAX_QUOTA } from '@shared/quota-limit'
import type { CreateTokenInput } from '@shared/token'
import { TOKEN_CONCURRENCY_LIMIT_MAX, TOKEN_CREATE_MAX_COUNT, TOKEN_DEFAULT_REMAIN_QUOTA, TOKEN_NAME_MAX_LENGTH, TOKEN_NEVER_EXPIRES, TOKEN_WINDOW_PRESETS } from '@shared/token-constants'
import { AUTO_GROUP } from '@shared/user-constants'
import { RATE_LIMIT_MAX } from '@shared/rate-limit-constants'
import { limitMessages, readLimit } from '@ui/features/tokens/rate-limit-form'
import { parseDateTime, quotaFromDisplay, quotaToDisplay, renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'
import type { FormProblem } from '@ui/lib/use-form-problem'
import type { TokenView } from '@ui/features/tokens/api'

export type TokenFormValues = {
	name: string
	/** `yyyy-MM-dd HH:mm:ss`, or `-1` for never. */
	expiry: string
	/** In the display unit: dollars when the server shows currency, else quota units. */
	quota: string
	unlimitedQuota: boolean
	count: string
	allowIps: string
	modelLimitsEnabled: boolean
	models: string[]
	/** Empty: the owner's own group. */
	group: string
	/** Calls in flight at once, a whole number; 0: no limit. */
	concurrencyLimit: string
	/** Requests a minute, tokens a minute, requests a day, whole numbers; 0: no limit. */
	rpmLimit: string
	tpmLimit: string
	rpdLimit: string
	/** The token's calls use the response cache (when the operator turned it on). */
	responseCache: boolean
	/** Spend limits of the editor's window lengths, in the display unit; empty: none. */
	windowLimits: Record<WindowPreset, string>
	/** Windows of other lengths (set through the API): kept as they are. */
	otherWindows: { seconds: number; quota: number }[]
}

export type WindowPreset = keyof typeof TOKEN_WINDOW_PRESETS
export const WINDOW_PRESETS = Object.keys(TOKEN_WINDOW_PRESETS) as WindowPreset[]
const noWindowLimits = (): Record<WindowPreset, string> => ({ fiveHours: '', day: '', week: '', month: '' })

type TokenFields = Omit<CreateTokenInput, 'count'>

type QuotaDisplay = Pick<Status, 'display_in_currency' | 'quota_per_unit'>

export const neverExpires = String(TOKEN_NEVER_EXPIRES)

export const formMessages = {
	nameRequired: '请输入令牌名称',
	nameTooLong: '令牌名称不能超过 {max} 个字符',
	expiryFormat: '过期时间格式错误',
	quotaNotNumber: '额度必须是数字',
	quotaNotInteger: '额度必须是整数',
	quotaNegative: '额度不能为负数',
	quotaTooLarge: '额度不能超过 {max}',
	countInvalid: '创建数量必须是正整数',
	countTooLarge: '一次最多创建 {max} 个令牌',
	windowLimitInvalid: '额度窗口上限须为大于 0 的数字（留空表示不限），且不能超过 {max}',
	...limitMessages,
} as const

export type { FormProblem }

export function newTokenValues(status: QuotaDisplay & Pick<Status, 'default_use_auto_group'>): TokenFormValues {
	return {
		name: '',
		expiry: neverExpires,
		quota: quotaToDisplay(TOKEN_DEFAULT_REMAIN_QUOTA, status),
		unlimitedQuota: false,
		count: '1',
		allowIps: '',
		modelLimitsEnabled: false,
		models: [],
		group: status.default_use_auto_group ? AUTO_GROUP : '',
		concurrencyLimit: '0',
		rpmLimit: '0',
		tpmLimit: '0',
		rpdLimit: '0',
		responseCache: true,
		windowLimits: noWindowLimits(),
		otherWindows: [],
	}
}

export function tokenValues(token: TokenView, status: QuotaDisplay, formatTime: (seconds: number) => string): TokenFormValues {
	return {
		name: token.name,
		expiry: token.expired_time === TOKEN_NEVER_EXPIRES ? neverExpires : formatTime(token.expired_time),
		quota: quotaToDisplay(token.remain_quota, status),
		unlimitedQuota: token.unlimited_quota,
		count: '1',
		allowIps: token.allow_ips,
		modelLimitsEnabled: token.model_limits_enabled,
		models: token.model_limits.split(',').filter(Boolean),
		group: token.group,
		concurrencyLimit: String(token.concurrency_limit),
		rpmLimit: String(token.rpm_limit),
		tpmLimit: String(token.tpm_limit),
		rpdLimit: String(token.rpd_limit),
		responseCache: token.response_cache_enabled,
		...windowValues(token, status),
	}
}

/** The token's windows: those of the editor's lengths in its fields, the others kept aside. */
function windowValues(token: TokenView, status: QuotaDisplay): Pick<TokenFormValues, 'windowLimits' | 'otherWindows'> {
	const windowLimits = noWindowLimits()
	const otherWindows: TokenFormValues['otherWindows'] = []
	for (const { seconds, quota } of token.quota_windows) {
		const preset = WINDOW_PRESETS.find((name) => TOKEN_WINDOW_PRESETS[name] === seconds)
		if (preset) windowLimits[preset] = quotaToDisplay(quota, status)
		else otherWindows.push({ seconds, quota })
	}
	return { windowLimits, otherWindows }
}

/** The windows the form describes, shortest first; or the first field at fault. */
function readWindows(values: TokenFormValues, status: QuotaDisplay): Checked<TokenFields['quota_windows']> {
	const windows = [...values.otherWindows]
	for (const preset of WINDOW_PRESETS) {
		const text = values.windowLimits[preset].trim()
		if (text === '') continue
		const amount = Number(text)
		const quota = Number.isFinite(amount) ? quotaFromDisplay(amount, status) : Number.NaN
		if (!(quota >= 1) || quota > MAX_QUOTA || (!status.display_in_currency && !Number.isInteger(amount))) {
			return { problem: { message: formMessages.windowLimitInvalid, values: { max: renderQuota(MAX_QUOTA, status) }, fields: [`window-${preset}`] } }
		}
		windows.push({ seconds: TOKEN_WINDOW_PRESETS[preset], quota })
	}
	return { value: windows.sort((first, second) => first.seconds - second.seconds) }
}

function parseExpiry(text: string): number {
	return text.trim() === neverExpires ? TOKEN_NEVER_EXPIRES : parseDateTime(text)
}

type Checked<Value> = { value: Value; problem?: undefined } | { value?: undefined; problem: FormProblem }

/** The token's settings from the form, or the first problem to show. */
export function readTokenFields(values: TokenFormValues, status: QuotaDisplay): Checked<TokenFields> {
	const name = values.name.trim()
	if (!name) return { problem: { message: formMessages.nameRequired, fields: ['name'] } }
	if (name.length > TOKEN_NAME_MAX_LENGTH) return { problem: { message: formMessages.nameTooLong, values: { max: TOKEN_NAME_MAX_LENGTH }, fields: ['name'] } }
	const expiredTime = parseExpiry(values.expiry)
	if (Number.isNaN(expiredTime)) return { problem: { message: formMessages.expiryFormat, fields: ['expiry'] } }
	const amount = Number(values.quota.trim())
	if (values.quota.trim() === '' || !Number.isFinite(amount)) return { problem: { message: formMessages.quotaNotNumber, fields: ['quota'] } }
	if (amount < 0) return { problem: { message: formMessages.quotaNegative, fields: ['quota'] } }
	if (!status.display_in_currency && !Number.isInteger(amount)) return { problem: { message: formMessages.quotaNotInteger, fields: ['quota'] } }
	if (quotaFromDisplay(amount, status) > MAX_QUOTA) return { problem: { message: formMessages.quotaTooLarge, values: { max: renderQuota(MAX_QUOTA, status) }, fields: ['quota'] } }
	const concurrencyLimit = readLimit(values.concurrencyLimit, TOKEN_CONCURRENCY_LIMIT_MAX)
	if (concurrencyLimit === undefined) return { problem: { message: formMessages.concurrencyLimitInvalid, values: { max: TOKEN_CONCURRENCY_LIMIT_MAX }, fields: ['concurrencyLimit'] } }
	const rpm = readLimit(values.rpmLimit, RATE_LIMIT_MAX)
	if (rpm === undefined) return { problem: { message: formMessages.rpmLimitInvalid, values: { max: RATE_LIMIT_MAX }, fields: ['rpmLimit'] } }
	const tpm = readLimit(values.tpmLimit, RATE_LIMIT_MAX)
	if (tpm === undefined) return { problem: { message: formMessages.tpmLimitInvalid, values: { max: RATE_LIMIT_MAX }, fields: ['tpmLimit'] } }
	const rpd = readLimit(values.rpdLimit, RATE_LIMIT_MAX)
	if (rpd === undefined) return { problem: { message: formMessages.rpdLimitInvalid, values: { max: RATE_LIMIT_MAX }, fields: ['rpdLimit'] } }
	const windows = readWindows(values, status)
	if (windows.problem) return windows
	return {
		value: {
			name,
			expired_time: expiredTime,
			remain_quota: quotaFromDisplay(amount, status),
			unlimited_quota: values.unlimitedQuota,
			allow_ips: values.allowIps,
			model_limits_enabled: values.modelLimitsEnabled,
			model_limits: values.models.join(','),
			group: values.group,
			concurrency_limit: concurrencyLimit,
			rpm_limit: rpm,
			tpm_limit: tpm,
			rpd_limit: rpd,
			response_cache_enabled: values.responseCache,
			quota_windows: windows.value,
		},
	}
}

export function readCount(text: string): Checked<number> {
	const count = Number(text.trim())
	if (!Number.isInteger(count) || count < 1) return { problem: { message: formMessages.countInvalid, fields: ['count'] } }
	if (count > TOKEN_CREATE_MAX_COUNT) return { problem: { message: formMessages.countTooLarge, values: { max: TOKEN_CREATE_MAX_COUNT }, fields: ['count'] } }
	return { value: count }
}

/** The fields an edit really changes, so that untouched ones (the remaining quota above all) are not sent back stale. */
export function changedFields(before: TokenFields, after: TokenFields): Partial<TokenFields> {
	const changes: Partial<TokenFields> = {}
	for (const field of Object.keys(after) as (keyof TokenFields)[]) {
		// The windows are a list: compared by what they say.
		const changed = field === 'quota_windows' ? JSON.stringify(after[field]) !== JSON.stringify(before[field]) : after[field] !== before[field]
		if (changed) Object.assign(changes, { [field]: after[field] })
	}
	return changes
}
