/** The async task log `/task` (seed 002 §2): filters, default range from the start of today, the task table. */
import { useCallback } from 'react'
import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import type { Page } from '@shared/api'
import { DataTable } from '@ui/components/data-table/data-table'
import { apiQuery, readPaging, useTableUrlState } from '@ui/components/data-table/url-state'
import { type FilterChanges, TaskFilterForm } from '@ui/features/tasks/components/task-filters'
import { useTaskColumns } from '@ui/features/tasks/components/task-columns'
import type { TaskRow } from '@ui/features/tasks/task-display'
import { filterQuery, readTaskFilters, startOfDay, type TaskFilters } from '@ui/features/tasks/task-query'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { isAdmin, requireSelf } from '@ui/lib/session'
import { timeZoneFromCookieHeader } from '@ui/lib/time-zone'

type TaskPageData = {
	admin: boolean
	filters: TaskFilters
	/** No start in the URL: the start-of-today default applies. */
	defaultRange: boolean
	entries: Page<TaskRow>
}

/** The viewer's zone: the cookie on the server, the browser's own after that. */
const viewerTimeZone = (request: Request) =>
	typeof document === 'undefined' ? timeZoneFromCookieHeader(request.headers.get('cookie')) : Intl.DateTimeFormat().resolvedOptions().timeZone

export async function loader({ request, context }: LoaderFunctionArgs): Promise<TaskPageData> {
	const api = context.get(apiContext)
	const admin = isAdmin(await requireSelf(api))
	const now = Math.floor(Date.now() / 1000)
	const paging = readPaging(request.url)
	const filters = readTaskFilters(request.url, 'task_id', admin, startOfDay(now, viewerTimeZone(request)), now)
	const list = await api.get<Page<TaskRow>>(`${admin ? '/api/task/' : '/api/task/self'}?${apiQuery(paging, filterQuery(filters, 'task_id'))}`)
	const defaultRange = !new URL(request.url).searchParams.get('start_timestamp')
	return { admin, filters, defaultRange, entries: list.success ? list.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 } }
}

export function Component() {
	const { t } = useTranslation()
	const { admin, filters, defaultRange, entries } = useLoaderData() as TaskPageData
	const table = useTableUrlState('tasks')
	const columns = useTaskColumns(admin)
	const { setFilters } = table
	const applyFilters = useCallback((changes: FilterChanges) => setFilters(changes), [setFilters])
	const resetFilters = useCallback(() => setFilters({ task_id: null, channel_id: null, start_timestamp: null, end_timestamp: null }), [setFilters])
	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-col gap-1">
				<h1 className="text-xl font-semibold">{t('任务日志')}</h1>
				{defaultRange && <p className="text-sm text-muted-foreground">{t('默认显示今天提交的任务')}</p>}
			</div>
			<TaskFilterForm filters={filters} idName="task_id" idLabel="任务 ID" formLabel="筛选任务" admin={admin} onApply={applyFilters} onReset={resetFilters} />
			<DataTable
				columns={columns}
				rows={entries.items}
				rowKey={(entry) => entry.id}
				pagination={{ page: entries.page, pageSize: entries.page_size, total: entries.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
			/>
		</div>
	)
}
