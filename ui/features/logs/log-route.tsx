/** The usage log page `/log` (docs/specification/logs-and-dashboard.md#the-log-page): filters, totals, the entry table and, for admins, cleanup. */
import { useCallback } from 'react'
import { type LoaderFunctionArgs, Link, useLoaderData } from 'react-router'
import type { Page } from '@shared/api'
import { LOG_DEFAULT_LOOKBACK_SECONDS } from '@shared/log-constants'
import type { LogStat } from '@shared/log'
import { DataTable } from '@ui/components/data-table/data-table'
import { EmptyState } from '@ui/components/data-table/empty-state'
import { apiQuery, readPaging, useTableUrlState } from '@ui/components/data-table/url-state'
import { Button } from '@ui/components/ui/button'
import { LogCleanup } from '@ui/features/logs/components/log-cleanup'
import { LogPhoneSummary, useLogColumns } from '@ui/features/logs/components/log-columns'
import { LogDetails } from '@ui/features/logs/components/log-details'
import { type FilterChanges, LogFilterForm } from '@ui/features/logs/components/log-filters'
import { LogStats } from '@ui/features/logs/components/log-stats'
import type { LogRow } from '@ui/features/logs/log-display'
import { defaultCleanupTime, type LogFilters, readLogFilters, statQuery, textFilterNames } from '@ui/features/logs/log-query'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { isAdmin, requireSelf } from '@ui/lib/session'

type LogPageData = {
	admin: boolean
	filters: LogFilters
	/** No start in the URL: the recent-days default applies. */
	defaultRange: boolean
	entries: Page<LogRow>
	stat: LogStat
	/** Admins only: the cleanup time offered by default. */
	cleanupTime?: number
}

const emptyStat: LogStat = { quota: 0, rpm: 0, tpm: 0 }
const SECONDS_PER_DAY = 24 * 60 * 60

export async function loader({ request, context }: LoaderFunctionArgs): Promise<LogPageData> {
	const api = context.get(apiContext)
	const admin = isAdmin(await requireSelf(api))
	const now = Math.floor(Date.now() / 1000)
	const paging = readPaging(request.url)
	const filters = readLogFilters(request.url, admin, now)
	const base = admin ? '/api/log' : '/api/log/self'
	const query = apiQuery(paging, filters)
	const [list, stat] = await Promise.all([
		api.get<Page<LogRow>>(`${base}/?${query}`),
		api.get<LogStat>(`${base}/stat?${statQuery(filters)}`),
	])
	const entries = list.success ? list.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 }
	return {
		admin,
		filters,
		defaultRange: !new URL(request.url).searchParams.get('start_timestamp'),
		entries,
		stat: stat.success ? stat.data : emptyStat,
		...(admin ? { cleanupTime: defaultCleanupTime(now) } : {}),
	}
}

export function Component() {
	const { t } = useTranslation()
	const { admin, filters, defaultRange, entries, stat, cleanupTime } = useLoaderData() as LogPageData
	const table = useTableUrlState('logs')
	const columns = useLogColumns(admin)
	const { setFilters } = table

	const applyFilters = useCallback((changes: FilterChanges) => setFilters(changes), [setFilters])
	const resetFilters = useCallback(() => {
		const cleared: FilterChanges = { start_timestamp: null, end_timestamp: null }
		for (const name of textFilterNames) cleared[name] = null
		setFilters(cleared)
	}, [setFilters])

	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<div className="flex flex-col gap-1">
					<h1 className="text-xl font-semibold">{t('使用日志')}</h1>
					{defaultRange && <p className="text-sm text-muted-foreground">{t('默认显示最近 {days} 天的日志', { days: LOG_DEFAULT_LOOKBACK_SECONDS / SECONDS_PER_DAY })}</p>}
				</div>
				<LogStats stat={stat} />
			</div>
			<LogFilterForm filters={filters} admin={admin} onApply={applyFilters} onReset={resetFilters} />
			{admin && cleanupTime !== undefined && <LogCleanup defaultTime={cleanupTime} />}
			<DataTable
				columns={columns}
				rows={entries.items}
				rowKey={(entry) => entry.id}
				renderExpanded={(entry) => <LogDetails entry={entry} admin={admin} />}
				phoneSummary={(entry) => <LogPhoneSummary entry={entry} />}
				empty={<EmptyState filtered={textFilterNames.some((name) => filters[name] !== '')} nothing='这段时间没有日志：用令牌调用 API 后，每次调用和扣费都会记在这里' noMatch='这段时间没有符合条件的日志' action={<Button asChild variant='outline'><Link to='/token'>{t('前往令牌')}</Link></Button>} />}
				pagination={{ page: entries.page, pageSize: entries.page_size, total: entries.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
			/>
		</div>
	)
}
