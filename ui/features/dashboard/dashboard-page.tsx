/** The usage dashboard `/detail` (docs/specification/logs-and-dashboard.md#the-usage-dashboard): totals and charts of quota, tokens and calls by model and over time. */
import { useCallback, useMemo, useState } from 'react'
import { Link, useLoaderData, useSearchParams } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardHeader } from '@ui/components/ui/card'
import { DashboardFilterForm, type DashboardFilterChanges, GRANULARITY_LABELS } from '@ui/features/dashboard/components/dashboard-filters'
import { formatMetric, METRIC_LABELS } from '@ui/features/dashboard/components/metric-format'
import { ShareChart } from '@ui/features/dashboard/components/share-chart'
import { StackedBarChart } from '@ui/features/dashboard/components/stacked-bar-chart'
import { UsageRanking } from '@ui/features/dashboard/components/usage-ranking'
import { UsageTable } from '@ui/features/dashboard/components/usage-table'
import { UsageTotals } from '@ui/features/dashboard/components/usage-totals'
import { MarginReport } from '@ui/features/dashboard/components/margin-report'
import type { DashboardPageData } from '@ui/features/dashboard/dashboard-route'
import { averagePerMinute, type Metric, METRICS, OTHER_MODELS, rankUsage, summariseUsage } from '@ui/features/dashboard/usage-summary'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'

export function DashboardPage() {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()
	const { admin, filters, buckets, error, now, margin } = useLoaderData() as DashboardPageData
	const [, setSearchParameters] = useSearchParams()
	const [metric, setMetric] = useState<Metric>('quota')

	const summary = useMemo(() => summariseUsage(buckets, filters.granularity, formatTime), [buckets, filters.granularity, formatTime])
	const topModels = useMemo(() => rankUsage(buckets, 'model_name', metric), [buckets, metric])
	const topUsers = useMemo(() => (admin ? rankUsage(buckets, 'username', metric) : []), [admin, buckets, metric])
	const { rpm, tpm } = averagePerMinute(summary.total, filters.start_timestamp, filters.end_timestamp, now)
	const format = useCallback((value: number, step?: number) => formatMetric(metric, value, status, step), [metric, status])
	const formatAny = useCallback((which: Metric, value: number) => formatMetric(which, value, status), [status])
	const modelLabel = useCallback((model: string) => (model === OTHER_MODELS ? t('其他模型') : model), [t])

	const applyFilters = useCallback((changes: Partial<DashboardFilterChanges> & { margin_by?: string }) => {
		setSearchParameters((previous) => {
			const next = new URLSearchParams(previous)
			for (const [key, value] of Object.entries(changes)) {
				if (value === null || value === '') next.delete(key)
				else next.set(key, String(value))
			}
			return next
		})
	}, [setSearchParameters])
	const resetFilters = useCallback(() => setSearchParameters(new URLSearchParams()), [setSearchParameters])

	const metricName = t(METRIC_LABELS[metric])
	const overTime = t('{metric}：按时间（每{granularity}）', { metric: metricName, granularity: t(GRANULARITY_LABELS[filters.granularity]) })
	return (
		<div className="flex flex-col gap-4" data-testid="dashboard">
			<div className="flex flex-col gap-1">
				<h1 className="text-xl font-semibold">{t('数据看板')}</h1>
				<p className="text-sm text-muted-foreground">{t('每 {minutes} 分钟汇总一次，最近的调用直接取自使用日志', { minutes: status.data_export_interval })}</p>
			</div>
			<DashboardFilterForm filters={filters} admin={admin} onApply={applyFilters} onReset={resetFilters} />
			{error ? (
				<p role="alert" className="rounded-xl border border-destructive/40 p-4 text-sm text-destructive">{error}</p>
			) : buckets.length === 0 ? (
				<NoUsageYet />
			) : (
				<>
					<UsageTotals total={summary.total} rpm={rpm} tpm={tpm} />
					<div className="flex flex-wrap gap-2" role="group" aria-label={t('图表指标')}>
						{METRICS.map((option) => (
							<Button key={option} type="button" size="sm" variant={option === metric ? 'default' : 'outline'} aria-pressed={option === metric} onClick={() => setMetric(option)}>
								{t(METRIC_LABELS[option])}
							</Button>
						))}
					</div>
					<div className="grid gap-4 lg:grid-cols-3">
						<Card className="min-w-0 lg:col-span-2">
							<CardHeader>
								<h2 className="font-semibold">{overTime}</h2>
							</CardHeader>
							<CardContent>
								<StackedBarChart periods={summary.periods} models={summary.models} metric={metric} metricName={metricName} format={format} modelLabel={modelLabel} title={overTime} />
							</CardContent>
						</Card>
						<Card className="min-w-0">
							<CardHeader><h2 className="font-semibold">{t('{metric}：按模型', { metric: metricName })}</h2></CardHeader>
							<CardContent>
								<ShareChart models={summary.models} metric={metric} metricName={metricName} title={t('{metric}：按模型', { metric: metricName })} format={format} modelLabel={modelLabel} />
							</CardContent>
						</Card>
					</div>
					<div className={admin ? 'grid gap-4 lg:grid-cols-2' : 'grid gap-4'}>
						<UsageRanking title={t('模型排行（按{metric}）', { metric: metricName })} entries={topModels} metric={metric} total={summary.total[metric]} format={format} testId="top-models" />
						{admin && <UsageRanking title={t('用户排行（按{metric}）', { metric: metricName })} entries={topUsers} metric={metric} total={summary.total[metric]} format={format} testId="top-users" />}
					</div>
					<UsageTable periods={summary.periods} models={summary.models} format={formatAny} modelLabel={modelLabel} />
				</>
			)}
			{margin ? <MarginReport group={margin.group} rows={margin.rows} error={margin.error} onGroupChange={(group) => applyFilters({ margin_by: group })} /> : null}
		</div>
	)
}

/** No buckets in the range: no call was made in it (the newest hours come straight from the log). */
function NoUsageYet() {
	const { t } = useTranslation()
	return (
		<div className="flex flex-col items-center gap-3 rounded-xl border bg-card p-8 text-center text-card-foreground" data-testid="empty-state">
			<p className="font-medium">{t('这个时间段还没有使用数据')}</p>
			<p className="max-w-prose text-sm text-muted-foreground">
				{t('用令牌调用 API 后，调用会出现在这里；每次调用的明细在使用日志中。')}
			</p>
			<Button asChild variant="outline">
				<Link to="/log">{t('查看使用日志')}</Link>
			</Button>
		</div>
	)
}
