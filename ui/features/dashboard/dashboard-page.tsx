/** The usage dashboard `/detail` (seed 002 §2): totals and charts of quota, tokens and calls by model and over time. */
import { useCallback, useMemo, useState } from 'react'
import { useLoaderData, useSearchParams } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardHeader } from '@ui/components/ui/card'
import { DashboardFilterForm, type DashboardFilterChanges, GRANULARITY_LABELS } from '@ui/features/dashboard/components/dashboard-filters'
import { formatMetric, METRIC_LABELS } from '@ui/features/dashboard/components/metric-format'
import { ShareChart } from '@ui/features/dashboard/components/share-chart'
import { StackedBarChart } from '@ui/features/dashboard/components/stacked-bar-chart'
import { UsageTable } from '@ui/features/dashboard/components/usage-table'
import { UsageTotals } from '@ui/features/dashboard/components/usage-totals'
import type { DashboardPageData } from '@ui/features/dashboard/dashboard-route'
import { averagePerMinute, type Metric, METRICS, OTHER_MODELS, summariseUsage } from '@ui/features/dashboard/usage-summary'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'

export function DashboardPage() {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()
	const { admin, filters, buckets, error, now } = useLoaderData() as DashboardPageData
	const [, setSearchParameters] = useSearchParams()
	const [metric, setMetric] = useState<Metric>('quota')

	const summary = useMemo(() => summariseUsage(buckets, filters.granularity, formatTime), [buckets, filters.granularity, formatTime])
	const { rpm, tpm } = averagePerMinute(summary.total, filters.start_timestamp, filters.end_timestamp, now)
	const format = useCallback((value: number, step?: number) => formatMetric(metric, value, status, step), [metric, status])
	const formatAny = useCallback((which: Metric, value: number) => formatMetric(which, value, status), [status])
	const modelLabel = useCallback((model: string) => (model === OTHER_MODELS ? t('其他模型') : model), [t])

	const applyFilters = useCallback((changes: DashboardFilterChanges) => {
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
	return (
		<div className="flex flex-col gap-4" data-testid="dashboard">
			<div className="flex flex-col gap-1">
				<h1 className="text-xl font-semibold">{t('数据看板')}</h1>
				<p className="text-sm text-muted-foreground">{t('数据每 {minutes} 分钟同步一次', { minutes: status.data_export_interval })}</p>
			</div>
			<DashboardFilterForm filters={filters} admin={admin} onApply={applyFilters} onReset={resetFilters} />
			{error ? (
				<p role="alert" className="rounded-xl border border-destructive/40 p-4 text-sm text-destructive">{error}</p>
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
					<div className="grid gap-4 lg:grid-cols-2">
						<Card>
							<CardHeader><h2 className="font-semibold">{t('{metric}：按模型', { metric: metricName })}</h2></CardHeader>
							<CardContent>
								<ShareChart models={summary.models} metric={metric} title={t('{metric}：按模型', { metric: metricName })} format={format} modelLabel={modelLabel} />
							</CardContent>
						</Card>
						<Card>
							<CardHeader>
								<h2 className="font-semibold">{t('{metric}：按时间（每{granularity}）', { metric: metricName, granularity: t(GRANULARITY_LABELS[filters.granularity]) })}</h2>
							</CardHeader>
							<CardContent>
								<StackedBarChart periods={summary.periods} models={summary.models} metric={metric} format={format} modelLabel={modelLabel}
									title={t('{metric}：按时间（每{granularity}）', { metric: metricName, granularity: t(GRANULARITY_LABELS[filters.granularity]) })} />
							</CardContent>
						</Card>
					</div>
					<UsageTable periods={summary.periods} models={summary.models} format={formatAny} modelLabel={modelLabel} />
				</>
			)}
		</div>
	)
}
