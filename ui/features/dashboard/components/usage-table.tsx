/**
 * The charts' numbers as a table (for screen readers and for reading exact values): one row per
 * period and model, sorted by any column from its header (time first, oldest on top, until one is
 * chosen; numbers start with the biggest).
 */
import {
	type ColumnDef,
	createSortedRowModel,
	rowSortingFeature,
	type SortingState,
	sortFn_basic,
	sortFn_text,
	tableFeatures,
	type Updater,
	functionalUpdate,
	useTable,
} from '@tanstack/react-table'
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react'
import { useMemo, useState } from 'react'
import type { Metric, ModelUsage, PeriodUsage, Usage } from '@ui/features/dashboard/usage-summary'
import { METRICS } from '@ui/features/dashboard/usage-summary'
import { METRIC_LABELS } from '@ui/features/dashboard/components/metric-format'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

type UsageTableProps = {
	periods: PeriodUsage[]
	models: ModelUsage[]
	format: (metric: Metric, value: number) => string
	modelLabel: (model: string) => string
}

type UsageRow = Usage & { period: string; model: string }

const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel(), sortFns: { basic: sortFn_basic, text: sortFn_text } })
type Features = typeof features
type Column = ColumnDef<Features, UsageRow>

const BY_TIME: SortingState = [{ id: 'period', desc: false }]
const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const

export function UsageTable({ periods, models, format, modelLabel }: UsageTableProps) {
	const { t } = useTranslation()
	const [sorting, setSorting] = useState<SortingState>(BY_TIME)
	const rows = useMemo<UsageRow[]>(() => periods.flatMap((period) => models.filter((model) => period.byModel.has(model.model))
		.map((model) => ({ period: period.label, model: model.model, ...period.byModel.get(model.model)! }))), [periods, models])
	const columns = useMemo<Column[]>(() => [
		{ id: 'period', header: '时间', accessorFn: (row) => row.period, sortFn: 'text' },
		{ id: 'model', header: '模型', accessorFn: (row) => modelLabel(row.model), sortFn: 'text' },
		...METRICS.map((metric): Column => ({ id: metric, header: METRIC_LABELS[metric], accessorFn: (row) => row[metric], sortFn: 'basic', sortDescFirst: true })),
	], [modelLabel])
	const table = useTable({
		features,
		columns,
		data: rows,
		state: { sorting },
		onSortingChange: (updater: Updater<SortingState>) => setSorting((current) => functionalUpdate(updater, current)),
		enableMultiSort: false,
		enableSortingRemoval: false,
	})

	return (
		<details className="rounded-xl border bg-card px-4 py-3 text-card-foreground">
			<summary className="cursor-pointer text-sm font-medium">{t('查看数据表')}</summary>
			<Table className="mt-3" data-testid="usage-table">
				<TableHeader>
					{table.getHeaderGroups().map((group) => (
						<TableRow key={group.id}>
							{group.headers.map((header) => {
								const sorted = header.column.getIsSorted()
								const numeric = header.column.id !== 'period' && header.column.id !== 'model'
								const Icon = sorted === 'asc' ? ArrowUpIcon : sorted === 'desc' ? ArrowDownIcon : ArrowUpDownIcon
								return (
									<TableHead key={header.id} aria-sort={sorted ? ARIA_SORT[sorted] : 'none'} data-column={header.column.id} className={cn(numeric && 'text-right')}>
										<button type="button" className={cn('inline-flex items-center gap-1 hover:text-foreground', numeric && 'flex-row-reverse')} onClick={header.column.getToggleSortingHandler()}>
											{t(String(header.column.columnDef.header))}
											<Icon className={cn('size-3.5', !sorted && 'opacity-40')} aria-hidden="true" />
										</button>
									</TableHead>
								)
							})}
						</TableRow>
					))}
				</TableHeader>
				<TableBody>
					{table.getRowModel().rows.map((row) => {
						const usage = row.original
						return (
							<TableRow key={`${usage.period}|${usage.model}`} data-model={usage.model} data-count={usage.count}>
								<TableCell>{usage.period}</TableCell>
								<TableCell>{modelLabel(usage.model)}</TableCell>
								{METRICS.map((metric) => <TableCell key={metric} className="text-right tabular-nums">{format(metric, usage[metric])}</TableCell>)}
							</TableRow>
						)
					})}
				</TableBody>
			</Table>
		</details>
	)
}
