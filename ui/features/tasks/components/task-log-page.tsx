/**
 * What the two task logs (`/task`, `/midjourney`) show alike: the heading with the default-range
 * hint, the filter bar and the paged table, its filters kept in the URL.
 */
import { useCallback } from 'react'
import type { RowData } from '@tanstack/react-table'
import type { Page } from '@shared/api'
import { DataTable, type DataColumn } from '@ui/components/data-table/data-table'
import { useTableUrlState } from '@ui/components/data-table/url-state'
import { type FilterChanges, TaskFilterForm } from '@ui/features/tasks/components/task-filters'
import type { TaskFilters, TaskIdFilter } from '@ui/features/tasks/task-query'

type TaskLogPageProps<Row extends RowData & { id: number }> = {
	/** Already in the console's language. */
	title: string
	/** Shown while the URL names no start, already in the console's language. */
	defaultRangeHint?: string
	/** The table's name for its remembered page size. */
	tableName: string
	idName: TaskIdFilter
	/** The zh label of the filter form (its accessible name). */
	formLabel: string
	admin: boolean
	filters: TaskFilters
	columns: DataColumn<Row>[]
	entries: Page<Row>
}

export function TaskLogPage<Row extends RowData & { id: number }>({ title, defaultRangeHint, tableName, idName, formLabel, admin, filters, columns, entries }: TaskLogPageProps<Row>) {
	const table = useTableUrlState(tableName)
	const { setFilters } = table
	const applyFilters = useCallback((changes: FilterChanges) => setFilters(changes), [setFilters])
	const resetFilters = useCallback(() => setFilters({ [idName]: null, channel_id: null, start_timestamp: null, end_timestamp: null }), [setFilters, idName])
	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-col gap-1">
				<h1 className="text-xl font-semibold">{title}</h1>
				{defaultRangeHint && <p className="text-sm text-muted-foreground">{defaultRangeHint}</p>}
			</div>
			<TaskFilterForm filters={filters} idName={idName} idLabel="任务 ID" formLabel={formLabel} admin={admin} onApply={applyFilters} onReset={resetFilters} />
			<DataTable
				columns={columns}
				rows={entries.items}
				rowKey={(entry) => entry.id}
				pagination={{ page: entries.page, pageSize: entries.page_size, total: entries.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
			/>
		</div>
	)
}
