import { useId } from 'react'
import type { Metric, ModelUsage, PeriodUsage } from '@ui/features/dashboard/usage-summary'
import { seriesColour } from '@ui/features/dashboard/components/chart-palette'
import { useTranslation } from '@ui/i18n'

const HEIGHT = 220
const PLOT_TOP = 10
const PLOT_BOTTOM = 190
const AXIS_WIDTH = 56
const MIN_WIDTH = 640
const SLOT_WIDTH = 28
const GRID_LINES = 4
/** At most this many x-axis labels, so they never overlap. */
const MAX_LABELS = 8

/** The grid step: the smallest 1, 2 or 5 × 10^n (at least 1, every metric counts whole units) covering a quarter of the tallest bar. */
function gridStep(tallest: number): number {
	const wanted = Math.max(1, tallest / GRID_LINES)
	const magnitude = 10 ** Math.floor(Math.log10(wanted))
	for (const step of [1, 2, 5]) if (step * magnitude >= wanted) return step * magnitude
	return 10 * magnitude
}

type StackedBarChartProps = {
	periods: PeriodUsage[]
	models: ModelUsage[]
	metric: Metric
	title: string
	/** `step` is the grid's, for axis labels that must tell neighbouring lines apart. */
	format: (value: number, step?: number) => string
	modelLabel: (model: string) => string
}

/** One bar per period, stacked by model in the legend's order; each part names itself on hover. */
export function StackedBarChart({ periods, models, metric, title, format, modelLabel }: StackedBarChartProps) {
	const { t } = useTranslation()
	const titleId = useId()
	if (periods.length === 0) return <p className="py-10 text-center text-sm text-muted-foreground">{t('暂无数据')}</p>
	const step = gridStep(Math.max(...periods.map((period) => period.total[metric])))
	const top = step * GRID_LINES
	const width = Math.max(MIN_WIDTH, AXIS_WIDTH + periods.length * SLOT_WIDTH)
	const slot = (width - AXIS_WIDTH) / periods.length
	const barWidth = Math.max(2, Math.min(40, slot * 0.7))
	const scale = (value: number) => ((PLOT_BOTTOM - PLOT_TOP) * value) / top
	const labelEvery = Math.ceil(periods.length / MAX_LABELS)
	return (
		<div className="overflow-x-auto" data-testid="stacked-bar-chart">
			<svg viewBox={`0 0 ${width} ${HEIGHT}`} className="h-auto w-full min-w-[480px] text-muted-foreground" role="img" aria-labelledby={titleId}>
				<title id={titleId}>{title}</title>
				{Array.from({ length: GRID_LINES + 1 }, (_, index) => {
					const value = step * index
					const y = PLOT_BOTTOM - scale(value)
					return (
						<g key={index}>
							<line x1={AXIS_WIDTH} x2={width} y1={y} y2={y} stroke="currentColor" strokeOpacity={index === 0 ? 0.5 : 0.15} />
							<text x={AXIS_WIDTH - 6} y={y + 4} textAnchor="end" fontSize="11" fill="currentColor">{format(value, step)}</text>
						</g>
					)
				})}
				{periods.map((period, periodIndex) => {
					const x = AXIS_WIDTH + periodIndex * slot + (slot - barWidth) / 2
					let stacked = 0
					return (
						<g key={period.label}>
							{models.map((model, modelIndex) => {
								const value = period.byModel.get(model.model)?.[metric] ?? 0
								if (value <= 0) return null
								const height = scale(value)
								stacked += height
								return (
									<rect key={model.model} x={x} y={PLOT_BOTTOM - stacked} width={barWidth} height={height} fill={seriesColour(model.model, modelIndex)}>
										<title>{`${period.label} · ${modelLabel(model.model)}: ${format(value)}`}</title>
									</rect>
								)
							})}
							{periodIndex % labelEvery === 0 && (
								<text x={x + barWidth / 2} y={PLOT_BOTTOM + 16} textAnchor="middle" fontSize="11" fill="currentColor">
									{period.label.length > 10 ? period.label.slice(5) : period.label}
								</text>
							)}
						</g>
					)
				})}
			</svg>
		</div>
	)
}
