import type { FormEvent, ReactNode } from 'react'
import { FilterActions } from '@ui/components/filter-actions'
import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { parseDateTime } from '@ui/lib/format'
import { useFormatTime } from '@ui/lib/time-zone'

/** What a filter form applies: query names to values; null and '' drop the name from the URL. */
export type FilterChanges = Record<string, string | number | null>

/**
 * One field of a filter bar: a text input whose value goes under `name` when the form is submitted,
 * or an element of the page's own (`control`: a select that applies at once, or one that carries its
 * value in a hidden input of its `name`).
 */
export type FilterField = {
	/** The element's id, which its label names. */
	id: string
	/** zh label. */
	label: string
	/** The query name the value goes under, read from the form on submit; a control without one is not read. */
	name?: string
	/** A text field's value as the URL has it. */
	value?: string
	numeric?: boolean
	/** zh placeholder; "可选值" (optional) unless said. */
	placeholder?: string
	control?: ReactNode
}

type FilterFormProps = {
	/** zh accessible name of the form. */
	label: string
	/** The time inputs are `<idPrefix>-start-time` and `<idPrefix>-end-time`. */
	idPrefix: string
	/** The range as the URL has it, in unix seconds. */
	start: number
	end: number
	/** Fields before and after the time range, in their order. */
	before?: FilterField[]
	after?: FilterField[]
	/** Refuses a start after the end before applying (the dashboard). */
	rangeInOrder?: boolean
	/** More of the URL's state the fields show (a select's value), so they follow it too. */
	remountKey?: string
	onApply: (changes: FilterChanges) => void
	onReset: () => void
}

/** A unix time as a datetime-local input wants it (`yyyy-MM-ddTHH:mm:ss`); '' for none. */
export const toInputValue = (formatted: string) => (formatted === '-' ? '' : formatted.replace(' ', 'T'))

/**
 * The filter bar of the log, task and dashboard pages: text fields and the time range apply with the
 * search button, in the viewer's time zone. It is remounted whenever the URL's filters (or the time
 * zone) change, so the fields always show them.
 */
export function FilterForm(props: FilterFormProps) {
	const formatTime = useFormatTime()
	const start = toInputValue(formatTime(props.start))
	const end = toInputValue(formatTime(props.end))
	const fields = [...(props.before ?? []), ...(props.after ?? [])]
	const key = [start, end, props.remountKey ?? '', ...fields.map((field) => field.value ?? '')].join('|')
	return <FilterFields key={key} {...props} startValue={start} endValue={end} />
}

function FilterFields({ label, idPrefix, before = [], after = [], rangeInOrder, onApply, onReset, startValue, endValue }: FilterFormProps & { startValue: string; endValue: string }) {
	const { t } = useTranslation()

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const text = (name: string) => String(form.get(name) ?? '').trim()
		const time = (name: string) => (text(name) ? parseDateTime(text(name)) : null)
		const startTime = time('start_time')
		const endTime = time('end_time')
		if (Number.isNaN(startTime) || Number.isNaN(endTime)) {
			toast.error(t('时间格式错误'))
			return
		}
		if (rangeInOrder && startTime !== null && endTime !== null && startTime > endTime) {
			toast.error(t('起始时间不能晚于结束时间'))
			return
		}
		const changes: FilterChanges = { start_timestamp: startTime, end_timestamp: endTime }
		for (const field of [...before, ...after]) {
			if (field.name) changes[field.name] = text(field.name)
		}
		onApply(changes)
	}

	const renderField = (field: FilterField) => (
		<Field key={field.id} id={field.id} label={field.label}>
			{field.control ?? (
				<Input
					id={field.id}
					name={field.name}
					defaultValue={field.value}
					placeholder={t(field.placeholder ?? '可选值')}
					{...(field.numeric ? { type: 'number', min: 0, inputMode: 'numeric' as const } : {})}
				/>
			)}
		</Field>
	)

	return (
		<form onSubmit={handleSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label={t(label)}>
			{before.map(renderField)}
			<Field id={`${idPrefix}-start-time`} label="起始时间">
				<Input id={`${idPrefix}-start-time`} name="start_time" type="datetime-local" step={1} defaultValue={startValue} />
			</Field>
			<Field id={`${idPrefix}-end-time`} label="结束时间">
				<Input id={`${idPrefix}-end-time`} name="end_time" type="datetime-local" step={1} defaultValue={endValue} />
			</Field>
			{after.map(renderField)}
			<FilterActions onReset={onReset} />
		</form>
	)
}
