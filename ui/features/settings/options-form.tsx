/**
 * One settings section's form over the option texts (docs/specification/accounts-and-settings.md#options): fields hold strings, JSON fields
 * are checked on blur, saving checks every field, then sends only the changed keys, one
 * `PUT /api/option/` each, and says whether all, some or none were saved.
 */
import { useEffect, useState } from 'react'
import { useLoaderData, useRevalidator } from 'react-router'
import { MAX_QUOTA } from '@shared/quota-limit'
import { toast } from '@ui/components/ui/toaster'
import { type OptionMap, updateOption } from '@ui/features/settings/api'
import type { SettingData } from '@ui/features/settings/setting-route'
import { useTranslation } from '@ui/i18n'
import { describeError } from '@ui/lib/api'
import { browserApi } from '@ui/lib/browser-api'
import { quotaFromDisplay, quotaToDisplay, renderQuota } from '@ui/lib/format'
import { type Status, useStatus } from '@ui/lib/status'

/** zh source strings of the settings messages (docs/specification/accounts-and-settings.md#options). */
export const optionMessages = {
	checkInput: '请检查输入',
	nothingChanged: '没有需要保存的修改',
	saved: '保存成功',
	someFailed: '部分保存失败，请重试',
	allFailed: '保存失败，请重试',
	invalidJson: '不是合法的 JSON 字符串',
	enterNumber: '请输入数字',
	notBelow: '不能小于 {min}',
	serverAddressFirst: '请先填写服务器地址',
	quotaNotInteger: '额度必须是整数',
	quotaTooLarge: '额度不能超过 {max}',
} as const

/**
 * How a field is checked and sent: numbers have their minimum; quota amounts are shown and typed in the
 * display unit (dollars when the server shows currency, else whole quota units) and sent as quota
 * units; JSON must parse (with its own message where the specification gives one); addresses lose
 * trailing slashes; secrets start empty (the server never sends them) and are sent only when typed.
 */
export type FieldRule =
	| { kind: 'number'; min: number }
	| { kind: 'quota' }
	| { kind: 'json'; message?: string }
	| { kind: 'address' }
	| { kind: 'secret' }

export const numberRule = (min: number): FieldRule => ({ kind: 'number', min })
export const quotaRule: FieldRule = { kind: 'quota' }
export const jsonRule = (message?: string): FieldRule => ({ kind: 'json', message })
export const addressRule: FieldRule = { kind: 'address' }
export const secretRule: FieldRule = { kind: 'secret' }

type FormRules = Readonly<Record<string, FieldRule>>

type QuotaDisplay = Pick<Status, 'display_in_currency' | 'quota_per_unit'>

/** A refusal (zh source string) that stops the save before anything is sent. */
export type BeforeSave = (changed: string[], values: OptionMap) => string | undefined

const stripTrailingSlashes = (value: string) => value.trim().replace(/\/+$/, '')

/** JSON is shown indented; the server keeps it compact. Quota is shown in the display unit. */
function display(rule: FieldRule | undefined, stored: string | undefined, quotaDisplay: QuotaDisplay) {
	if (rule?.kind === 'secret') return ''
	const text = stored ?? ''
	if (rule?.kind === 'quota') return text.trim() !== '' && Number.isFinite(Number(text)) ? quotaToDisplay(Number(text), quotaDisplay) : text
	if (rule?.kind !== 'json') return text
	try {
		return JSON.stringify(JSON.parse(text), null, 2)
	} catch {
		return text
	}
}

function normalize(rule: FieldRule | undefined, value: string, quotaDisplay: QuotaDisplay) {
	if (rule?.kind === 'address') return stripTrailingSlashes(value)
	if (rule?.kind === 'number') return value.trim()
	if (rule?.kind === 'quota') return String(quotaFromDisplay(Number(value), quotaDisplay))
	return value
}

/** The field's problem as `[message, values]`, or undefined when it may be saved. */
export function findProblem(rule: FieldRule | undefined, value: string, quotaDisplay: QuotaDisplay): [string, Record<string, string | number>?] | undefined {
	if (rule?.kind === 'number' || rule?.kind === 'quota') {
		const number = Number(value)
		const min = rule.kind === 'number' ? rule.min : 0
		if (value.trim() === '' || !Number.isFinite(number)) return [optionMessages.enterNumber]
		if (number < min) return [optionMessages.notBelow, { min }]
	}
	if (rule?.kind === 'quota') {
		const number = Number(value)
		if (!quotaDisplay.display_in_currency && !Number.isInteger(number)) return [optionMessages.quotaNotInteger]
		if (quotaFromDisplay(number, quotaDisplay) > MAX_QUOTA) return [optionMessages.quotaTooLarge, { max: renderQuota(MAX_QUOTA, quotaDisplay) }]
	}
	if (rule?.kind === 'json') {
		try {
			JSON.parse(value)
		} catch {
			return [rule.message ?? optionMessages.invalidJson]
		}
	}
	return undefined
}

type FormState = { values: OptionMap; baseline: OptionMap; revision: number }

function initialState(keys: readonly string[], rules: FormRules, options: OptionMap, quotaDisplay: QuotaDisplay): FormState {
	const values = Object.fromEntries(keys.map((key) => [key, display(rules[key], options[key], quotaDisplay)]))
	return { values, baseline: { ...values }, revision: 0 }
}

export type OptionForm = ReturnType<typeof useOptionForm>

/** `keys` and `rules` must be stable (module constants). */
export function useOptionForm(keys: readonly string[], rules: FormRules = {}, beforeSave?: BeforeSave) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const options = (useLoaderData() as SettingData).options ?? {}
	const { display_in_currency, quota_per_unit } = useStatus()
	const quotaDisplay = { display_in_currency, quota_per_unit }
	const [state, setState] = useState(() => initialState(keys, rules, options, quotaDisplay))
	const [errors, setErrors] = useState<Record<string, string>>({})
	const [saving, setSaving] = useState(false)

	// A value the server changed since (another section's save, the ratio reset, a new display unit) replaces an untouched field.
	useEffect(() => {
		const quotaDisplay = { display_in_currency, quota_per_unit }
		setState((current) => {
			const next = { values: { ...current.values }, baseline: { ...current.baseline }, revision: current.revision + 1 }
			let changed = false
			for (const key of keys) {
				const stored = display(rules[key], options[key], quotaDisplay)
				if (stored === current.baseline[key] || current.values[key] !== current.baseline[key]) continue
				next.values[key] = stored
				next.baseline[key] = stored
				changed = true
			}
			return changed ? next : current
		})
	}, [options, keys, rules, display_in_currency, quota_per_unit])

	function describe(key: string, value: string) {
		const problem = findProblem(rules[key], value, quotaDisplay)
		return problem ? t(problem[0], problem[1]) : undefined
	}

	function setError(key: string, message: string | undefined) {
		setErrors((current) => {
			if (current[key] === message) return current
			const { [key]: _dropped, ...rest } = current
			return message === undefined ? rest : { ...rest, [key]: message }
		})
	}

	function set(key: string, value: string) {
		setState((current) => ({ ...current, values: { ...current.values, [key]: value } }))
		if (errors[key] && !describe(key, value)) setError(key, undefined)
	}

	/** JSON fields say at once when they do not parse (docs/specification/accounts-and-settings.md#options). */
	function check(key: string) {
		if (rules[key]?.kind === 'json') setError(key, describe(key, state.values[key] ?? ''))
	}

	/** Saves the changed keys; `overrides` replaces values first (the visual ratio table). Answers whether all were saved. */
	async function save(overrides?: OptionMap): Promise<boolean> {
		const values = { ...state.values, ...overrides }
		if (overrides) setState((current) => ({ ...current, values: { ...current.values, ...overrides } }))
		const problems = Object.fromEntries(keys.flatMap((key) => {
			const message = describe(key, values[key] ?? '')
			return message ? [[key, message]] : []
		}))
		setErrors(problems)
		if (Object.keys(problems).length > 0) {
			toast.error(t(optionMessages.checkInput))
			return false
		}
		const changed = keys.filter((key) => (rules[key]?.kind === 'secret' ? values[key]!.trim() !== '' : values[key] !== state.baseline[key]))
		if (changed.length === 0) {
			toast.info(t(optionMessages.nothingChanged))
			return false
		}
		const refusal = beforeSave?.(changed, values)
		if (refusal) {
			toast.error(t(refusal))
			return false
		}
		setSaving(true)
		const saved: OptionMap = {}
		const refusals = new Set<string>()
		for (const key of changed) {
			const value = normalize(rules[key], values[key]!, quotaDisplay)
			try {
				const envelope = await updateOption(browserApi, key, value)
				if (envelope.success) saved[key] = value
				else refusals.add(envelope.message ? t(envelope.message) : t(optionMessages.allFailed))
			} catch (error) {
				refusals.add(describeError(error, t))
			}
		}
		setSaving(false)
		setState((current) => {
			const next = { values: { ...current.values }, baseline: { ...current.baseline }, revision: current.revision }
			for (const [key, value] of Object.entries(saved)) {
				const shown = rules[key]?.kind === 'json' ? values[key]! : display(rules[key], value, quotaDisplay)
				next.values[key] = shown
				next.baseline[key] = shown
			}
			return next
		})
		const savedCount = Object.keys(saved).length
		if (savedCount === changed.length) toast.success(t(optionMessages.saved))
		else {
			// One error toast (a new one replaces the last): the outcome, then the server's reasons.
			const outcome = t(savedCount === 0 ? optionMessages.allFailed : optionMessages.someFailed)
			const reasons = [...refusals].filter((reason) => reason !== t(optionMessages.allFailed))
			toast.error(reasons.length > 0 ? t('{outcome}：{reasons}', { outcome, reasons: reasons.join(' · ') }) : outcome)
		}
		if (savedCount > 0) revalidator.revalidate()
		return savedCount === changed.length
	}

	return { keys, rules, values: state.values, revision: state.revision, errors, saving, set, check, save }
}
