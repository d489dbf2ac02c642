/** The drawing task log `/midjourney` (seed 002 §2): filters, default range the last 30 days, the task table. */
import { useCallback } from 'react'
import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import type { Page } from '@shared/api'
import { MJ_DEFAULT_LOOKBACK_SECONDS } from '@shared/task-constants'
import { DataTable } from '@ui/components/data-table/data-table'
import { apiQuery, readPaging, useTableUrlState } from '@ui/components/data-table/url-state'
import { useDrawingColumns } from '@ui/features/midjourney/components/drawing-columns'
import type { DrawingRow } from '@ui/features/midjourney/midjourney-display'
import { type FilterChanges, TaskFilterForm } from '@ui/features/tasks/components/task-filters'
import { filterQuery, readTaskFilters, type TaskFilters } from '@ui/features/tasks/task-query'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { isAdmin, requireSelf } from '@ui/lib/session'

type DrawingPageData = {
	admin: boolean
	filters: TaskFilters
	/** No start in the URL: the 30-day default applies. */
	defaultRange: boolean
	entries: Page<DrawingRow>
}

const SECONDS_PER_DAY = 24 * 60 * 60

export async function loader({ request, context }: LoaderFunctionArgs): Promise<DrawingPageData> {
	const api = context.get(apiContext)
	const admin = isAdmin(await requireSelf(api))
	const now = Math.floor(Date.now() / 1000)
	const paging = readPaging(request.url)
	const filters = readTaskFilters(request.url, 'mj_id', admin, now - MJ_DEFAULT_LOOKBACK_SECONDS, now)
	const list = await api.get<Page<DrawingRow>>(`${admin ? '/api/mj/' : '/api/mj/self/'}?${apiQuery(paging, filterQuery(filters, 'mj_id'))}`)
	return {
		admin,
		filters,
		defaultRange: !new URL(request.url).searchParams.get('start_timestamp'),
		entries: list.success ? list.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 },
	}
}

export function Component() {
	const { t } = useTranslation()
	const { admin, filters, defaultRange, entries } = useLoaderData() as DrawingPageData
	const table = useTableUrlState('drawings')
	const columns = useDrawingColumns(admin)
	const { setFilters } = table
	const applyFilters = useCallback((changes: FilterChanges) => setFilters(changes), [setFilters])
	const resetFilters = useCallback(() => setFilters({ mj_id: null, channel_id: null, start_timestamp: null, end_timestamp: null }), [setFilters])
	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-col gap-1">
				<h1 className="text-xl font-semibold">{t('绘图日志')}</h1>
				{defaultRange && <p className="text-sm text-muted-foreground">{t('默认显示最近 {days} 天的绘图任务', { days: MJ_DEFAULT_LOOKBACK_SECONDS / SECONDS_PER_DAY })}</p>}
			</div>
			<TaskFilterForm filters={filters} idName="mj_id" idLabel="任务 ID" formLabel="筛选绘图任务" admin={admin} onApply={applyFilters} onReset={resetFilters} />
			<DataTable
				columns={columns}
				rows={entries.items}
				rowKey={(entry) => entry.id}
				pagination={{ page: entries.page, pageSize: entries.page_size, total: entries.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
			/>
		</div>
	)
}
