import type { LoaderFunctionArgs } from 'react-router'
import type { DataGranularity, QuotaData } from '@shared/quota-data'
import type { MarginGroup } from '@shared/margin-constants'
import type { MarginRow } from '@shared/margin'
import { isMarginGroup } from '@ui/features/dashboard/margin-display'
import { type DashboardFilters, dataQuery, isGranularity, readDashboardFilters } from '@ui/features/dashboard/dashboard-query'
import { apiContext } from '@ui/lib/api'
import { isAdmin, requireSelf } from '@ui/lib/session'
import { loadStatus } from '@ui/lib/status'

export { DashboardPage as Component } from '@ui/features/dashboard/dashboard-page'

export type DashboardPageData = {
	admin: boolean
	filters: DashboardFilters
	/** The hourly buckets of the range (everyone's or one user's for admins, the caller's own otherwise). */
	buckets: QuotaData[]
	/** The data call's refusal (the dashboard turned off, a bad range), shown instead of the charts. */
	error: string
	/** The loader's clock, so server and browser render the same averages. */
	now: number
	/** Admins: the margin report over the same range, grouped as the URL's `margin_by` says (by day by default). */
	margin: { group: MarginGroup; rows: MarginRow[]; error: string } | null
}

export async function loader({ request, context }: LoaderFunctionArgs): Promise<DashboardPageData> {
	const api = context.get(apiContext)
	const admin = isAdmin(await requireSelf(api))
	const now = Math.floor(Date.now() / 1000)
	// The status's granularity is needed only when the URL names none.
	const asked = new URL(request.url).searchParams.get('granularity')
	const defaultGranularity: DataGranularity = isGranularity(asked) ? asked : await defaultGranularityOf(api)
	const filters = readDashboardFilters(request.url, admin, now, defaultGranularity)
	const marginBy = new URL(request.url).searchParams.get('margin_by')
	const group: MarginGroup = isMarginGroup(marginBy) ? marginBy : 'day'
	const range = new URLSearchParams({ start_timestamp: String(filters.start_timestamp), end_timestamp: String(filters.end_timestamp), group_by: group })
	const [answer, margin] = await Promise.all([
		api.get<QuotaData[]>(`${admin ? '/api/data/' : '/api/data/self'}?${dataQuery(filters)}`),
		admin ? api.get<MarginRow[]>(`/api/data/margin?${range}`) : undefined,
	])
	return {
		admin, filters, buckets: answer.success ? answer.data : [], error: answer.success ? '' : answer.message, now,
		margin: margin ? { group, rows: margin.success ? margin.data : [], error: margin.success ? '' : margin.message } : null,
	}
}

async function defaultGranularityOf(api: Parameters<typeof loadStatus>[0]): Promise<DataGranularity> {
	const granularity = (await loadStatus(api)).data_export_default_time
	return isGranularity(granularity) ? granularity : 'hour'
}
