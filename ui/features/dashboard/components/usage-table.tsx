import type { Metric, ModelUsage, PeriodUsage } from '@ui/features/dashboard/usage-summary'
import { METRICS } from '@ui/features/dashboard/usage-summary'
import { METRIC_LABELS } from '@ui/features/dashboard/components/metric-format'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'

type UsageTableProps = {
	periods: PeriodUsage[]
	models: ModelUsage[]
	format: (metric: Metric, value: number) => string
	modelLabel: (model: string) => string
}

/** The charts' numbers as a table (for screen readers and for reading exact values): one row per period and model. */
export function UsageTable({ periods, models, format, modelLabel }: UsageTableProps) {
	const { t } = useTranslation()
	return (
		<details className="rounded-xl border bg-card px-4 py-3 text-card-foreground">
			<summary className="cursor-pointer text-sm font-medium">{t('查看数据表')}</summary>
			<Table className="mt-3" data-testid="usage-table">
				<TableHeader>
					<TableRow>
						<TableHead>{t('时间')}</TableHead>
						<TableHead>{t('模型')}</TableHead>
						{METRICS.map((metric) => <TableHead key={metric} className="text-right">{t(METRIC_LABELS[metric])}</TableHead>)}
					</TableRow>
				</TableHeader>
				<TableBody>
					{periods.flatMap((period) => models.filter((model) => period.byModel.has(model.model)).map((model) => {
						const usage = period.byModel.get(model.model)!
						return (
							<TableRow key={`${period.label}|${model.model}`} data-model={model.model} data-count={usage.count}>
								<TableCell>{period.label}</TableCell>
								<TableCell>{modelLabel(model.model)}</TableCell>
								{METRICS.map((metric) => <TableCell key={metric} className="text-right tabular-nums">{format(metric, usage[metric])}</TableCell>)}
							</TableRow>
						)
					}))}
				</TableBody>
			</Table>
		</details>
	)
}
