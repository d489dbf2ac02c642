/** The async task log `/task` (docs/specification/tasks.md#the-task-lists): filters, default range from the start of today, the task table. */
import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import type { Page } from '@shared/api'
import { apiQuery, readPaging } from '@ui/components/data-table/url-state'
import { TaskLogPage } from '@ui/features/tasks/components/task-log-page'
import { useTaskColumns } from '@ui/features/tasks/components/task-columns'
import type { TaskRow } from '@ui/features/tasks/task-display'
import { filterQuery, readTaskFilters, type TaskFilters } from '@ui/features/tasks/task-query'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { isAdmin, requireSelf } from '@ui/lib/session'
import { startOfDay, viewerTimeZone } from '@ui/lib/time-zone'

type TaskPageData = {
	admin: boolean
	filters: TaskFilters
	/** No start in the URL: the start-of-today default applies. */
	defaultRange: boolean
	entries: Page<TaskRow>
}

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
	const columns = useTaskColumns(admin)
	return (
		<TaskLogPage
			title={t('任务日志')}
			defaultRangeHint={defaultRange ? t('默认显示今天提交的任务') : undefined}
			tableName="tasks"
			idName="task_id"
			formLabel="筛选任务"
			admin={admin}
			filters={filters}
			columns={columns}
			entries={entries}
		/>
	)
}
