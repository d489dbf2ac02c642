/**
 * The margin report for admins: revenue (what wallets paid for calls, and plan sales), what the
 * calls cost on their channels, and the margin, grouped by day, channel, model or user, as bars, a
 * table and a CSV download. Calls on channels whose cost is unknown are counted apart.
 */
import { DownloadIcon } from 'lucide-react'
import { MARGIN_GROUPS, type MarginGroup } from '@shared/margin-constants'
import type { MarginRow } from '@shared/margin'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '@ui/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { MARGIN_GROUP_LABELS, marginCsv, marginRowLabel, marginShare } from '@ui/features/dashboard/margin-display'
import { downloadText } from '@ui/lib/download'

type MarginReportProps = {
	group: MarginGroup
	rows: MarginRow[]
	/** The report call's refusal, shown instead of it. */
	error: string
	onGroupChange: (group: MarginGroup) => void
}

export function MarginReport({ group, rows, error, onGroupChange }: MarginReportProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const money = (quota: number) => renderQuota(quota, status)
	const label = (row: MarginRow) => {
		const found = marginRowLabel(row, group)
		return found.translate ? t(found.text) : found.text
	}
	const widest = Math.max(1, ...rows.map((row) => Math.max(row.revenue, row.cost)))
	const totals = rows.reduce((sum, row) => ({ revenue: sum.revenue + row.revenue, cost: sum.cost + row.cost, margin: sum.margin + row.margin, calls: sum.calls + row.calls, uncosted: sum.uncosted + row.uncosted_calls }),
		{ revenue: 0, cost: 0, margin: 0, calls: 0, uncosted: 0 })
	return (
		<Card className="min-w-0" data-testid="margin-report">
			<CardHeader className="flex flex-col gap-3">
				<div className="flex flex-wrap items-center justify-between gap-2">
					<h2 className="font-semibold">{t('收入、成本与毛利')}</h2>
					<Button type="button" variant="outline" size="sm" disabled={rows.length === 0} onClick={() => downloadText(`margin-${group}.csv`, marginCsv(rows, group), 'text/csv;charset=utf-8')}>
						<DownloadIcon />
						{t('导出 CSV')}
					</Button>
				</div>
				<CardDescription>{t('收入为钱包支付的调用与套餐销售；套餐支付的调用计入成本，不计收入；成本未知的渠道单独计数')}</CardDescription>
				<div className="flex flex-wrap gap-2" role="group" aria-label={t('分组方式')}>
					{MARGIN_GROUPS.map((option) => (
						<Button key={option} type="button" size="sm" variant={option === group ? 'default' : 'outline'} aria-pressed={option === group} onClick={() => onGroupChange(option)}>
							{t(MARGIN_GROUP_LABELS[option])}
						</Button>
					))}
				</div>
			</CardHeader>
			<CardContent className="flex flex-col gap-4">
				{error ? <p role="alert" className="text-sm text-destructive">{error}</p> : rows.length === 0 ? (
					<p className="py-6 text-center text-sm text-muted-foreground">{t('暂无数据')}</p>
				) : (
					<>
						<dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="margin-totals">
							<Total label={t('收入')} value={money(totals.revenue)} />
							<Total label={t('成本')} value={money(totals.cost)} />
							<Total label={t('毛利')} value={money(totals.margin)} />
							<Total label={t('调用次数')} value={String(totals.calls)} />
						</dl>
						<ul className="flex flex-col gap-3" aria-label={t('收入、成本与毛利')} data-testid="margin-chart">
							{rows.slice(0, 30).map((row) => (
								<li key={row.key} className="flex flex-col gap-1 text-xs">
									<div className="flex flex-wrap justify-between gap-x-3">
										<span className="font-medium break-all text-foreground">{label(row)}</span>
										<span className="tabular-nums text-muted-foreground">{t('毛利 {margin}', { margin: money(row.margin) })}</span>
									</div>
									<Bar share={row.revenue / widest} className="bg-emerald-500" title={`${t('收入')} ${money(row.revenue)}`} />
									<Bar share={row.cost / widest} className="bg-orange-400" title={`${t('成本')} ${money(row.cost)}`} />
								</li>
							))}
						</ul>
						<div className="flex flex-wrap gap-4 text-xs text-muted-foreground">
							<span className="flex items-center gap-1"><span className="inline-block size-2.5 rounded-sm bg-emerald-500" />{t('收入')}</span>
							<span className="flex items-center gap-1"><span className="inline-block size-2.5 rounded-sm bg-orange-400" />{t('成本')}</span>
							{totals.uncosted > 0 ? <span>{t('{count} 次调用的成本未知', { count: totals.uncosted })}</span> : null}
						</div>
						<div className="overflow-x-auto">
							<Table data-testid="margin-table">
								<TableHeader>
									<TableRow>
										<TableHead>{t(MARGIN_GROUP_LABELS[group])}</TableHead>
										<TableHead className="text-right">{t('收入')}</TableHead>
										<TableHead className="text-right">{t('成本')}</TableHead>
										<TableHead className="text-right">{t('毛利')}</TableHead>
										<TableHead className="text-right">{t('毛利率')}</TableHead>
										<TableHead className="text-right">{t('调用次数')}</TableHead>
										<TableHead className="text-right">{t('套餐用量')}</TableHead>
									</TableRow>
								</TableHeader>
								<TableBody>
									{rows.map((row) => (
										<TableRow key={row.key} data-key={row.key}>
											<TableCell>{label(row)}</TableCell>
											<TableCell className="text-right tabular-nums">{money(row.revenue)}</TableCell>
											<TableCell className="text-right tabular-nums">{money(row.cost)}</TableCell>
											<TableCell className="text-right tabular-nums">{money(row.margin)}</TableCell>
											<TableCell className="text-right tabular-nums">{marginShare(row)}</TableCell>
											<TableCell className="text-right tabular-nums">{row.calls}</TableCell>
											<TableCell className="text-right tabular-nums">{money(row.plan_quota)}</TableCell>
										</TableRow>
									))}
								</TableBody>
							</Table>
						</div>
					</>
				)}
			</CardContent>
		</Card>
	)
}

function Total({ label, value }: { label: string; value: string }) {
	return (
		<div className="flex flex-col gap-1 rounded-lg border bg-muted/30 p-3">
			<dt className="text-xs text-muted-foreground">{label}</dt>
			<dd className="text-base font-semibold tabular-nums">{value}</dd>
		</div>
	)
}

function Bar({ share, className, title }: { share: number; className: string; title: string }) {
	return (
		<div className="h-2 w-full rounded-full bg-muted" title={title} aria-label={title} role="img">
			<div className={`h-full rounded-full ${className}`} style={{ width: `${Math.max(0, Math.min(1, share)) * 100}%` }} />
		</div>
	)
}
