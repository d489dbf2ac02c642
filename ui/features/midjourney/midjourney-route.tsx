/** The drawing task log `/midjourney` (docs/specification/tasks.md#the-task-lists): filters, default range the last 30 days, the task table. */
import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import type { Page } from '@shared/api'
import { MJ_DEFAULT_LOOKBACK_SECONDS } from '@shared/task-constants'
import { apiQuery, readPaging } from '@ui/components/data-table/url-state'
import { useDrawingColumns } from '@ui/features/midjourney/components/drawing-columns'
import type { DrawingRow } from '@ui/features/midjourney/midjourney-display'
import { TaskLogPage } from '@ui/features/tasks/components/task-log-page'
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
	const columns = useDrawingColumns(admin)
	return (
		<TaskLogPage
			title={t('绘图日志')}
			defaultRangeHint={defaultRange ? t('默认显示最近 {days} 天的绘图任务', { days: MJ_DEFAULT_LOOKBACK_SECONDS / SECONDS_PER_DAY }) : undefined}
			tableName="drawings"
			idName="mj_id"
			formLabel="筛选绘图任务"
			admin={admin}
			filters={filters}
			columns={columns}
			entries={entries}
		/>
	)
}
