import type { FormEvent } from 'react'
import { FilterActions } from '@ui/components/filter-actions'
import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { type TaskFilters, type TaskIdFilter, toInputValue } from '@ui/features/tasks/task-query'
import { useTranslation } from '@ui/i18n'
import { parseDateTime } from '@ui/lib/format'
import { useFormatTime } from '@ui/lib/time-zone'

export type FilterChanges = Record<string, string | number | null>

type TaskFilterFormProps = {
	filters: TaskFilters
	idName: TaskIdFilter
	/** The zh label of the id field. */
	idLabel: string
	/** The zh label of the whole form (its accessible name). */
	formLabel: string
	admin: boolean
	onApply: (changes: FilterChanges) => void
	onReset: () => void
}

/**
 * The task pages' filter bar: task id, time range and, for admins, channel id (docs/specification/tasks.md#the-task-lists).
 * Remounted whenever the URL's filters (or the viewer's time zone) change, so it shows them.
 */
export function TaskFilterForm(props: TaskFilterFormProps) {
	const formatTime = useFormatTime()
	const start = toInputValue(formatTime(props.filters.start_timestamp))
	const end = toInputValue(formatTime(props.filters.end_timestamp))
	const key = [start, end, props.filters.id, props.filters.channel_id].join('|')
	return <FilterFields key={key} {...props} start={start} end={end} />
}

function FilterFields({ filters, idName, idLabel, formLabel, admin, onApply, onReset, start, end }: TaskFilterFormProps & { start: string; end: string }) {
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
		onApply({ [idName]: text('id'), start_timestamp: startTime, end_timestamp: endTime, ...(admin ? { channel_id: text('channel_id') } : {}) })
	}

	return (
		<form onSubmit={handleSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label={t(formLabel)}>
			<Field id="task-id" label={idLabel}>
				<Input id="task-id" name="id" defaultValue={filters.id} placeholder={t('可选值')} />
			</Field>
			<Field id="task-start-time" label="起始时间">
				<Input id="task-start-time" name="start_time" type="datetime-local" step={1} defaultValue={start} />
			</Field>
			<Field id="task-end-time" label="结束时间">
				<Input id="task-end-time" name="end_time" type="datetime-local" step={1} defaultValue={end} />
			</Field>
			{admin && (
				<Field id="task-channel" label="渠道 ID">
					<Input id="task-channel" name="channel_id" type="number" min={0} inputMode="numeric" defaultValue={filters.channel_id} placeholder={t('可选值')} />
				</Field>
			)}
			<FilterActions onReset={onReset} />
		</form>
	)
}
