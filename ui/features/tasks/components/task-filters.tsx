import { FilterForm, type FilterChanges } from '@ui/components/filter-form'
import type { TaskFilters, TaskIdFilter } from '@ui/features/tasks/task-query'

export type { FilterChanges }

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

/** The task pages' filter bar: task id, time range and, for admins, channel id (docs/specification/tasks.md#the-task-lists). */
export function TaskFilterForm({ filters, idName, idLabel, formLabel, admin, onApply, onReset }: TaskFilterFormProps) {
	return (
		<FilterForm
			label={formLabel}
			idPrefix="task"
			start={filters.start_timestamp}
			end={filters.end_timestamp}
			before={[{ id: 'task-id', label: idLabel, name: idName, value: filters.id }]}
			after={admin ? [{ id: 'task-channel', label: '渠道 ID', name: 'channel_id', value: filters.channel_id, numeric: true }] : []}
			onApply={onApply}
			onReset={onReset}
		/>
	)
}
