/**
 * The usage over time: one bar per period, stacked by model in the legend's order. It is laid out in
 * real pixels at the width of its card (text never shrinks with the drawing); with more periods than
 * fit, it keeps a minimum bar width and scrolls sideways. The y axis is titled with the metric, the
 * x axis shows as many period labels as fit without overlapping, and a bar (hovered or focused) shows
 * its period's breakdown in a tooltip.
 */
import { useId } from 'react'
import type { Metric, ModelUsage, PeriodUsage } from '@ui/features/dashboard/usage-summary'
import { seriesColour } from '@ui/features/dashboard/components/chart-palette'
import { useChartTooltip } from '@ui/features/dashboard/components/chart-tooltip'
import { useElementWidth } from '@ui/features/dashboard/components/use-element-width'
import { useTranslation } from '@ui/i18n'

const HEIGHT = 240
const PLOT_TOP = 24
const PLOT_BOTTOM = 206
/** The width the server lays out for (and the browser until it has measured). */
const FALLBACK_WIDTH = 640
const MIN_SLOT_PX = 10
const MAX_BAR_PX = 40
const GRID_LINES = 4
const FONT_PX = 11
/** A generous advance of one character of the axis font (digits, `$`, `.`, Latin letters). */
const CHARACTER_PX = 7
const AXIS_GAP_PX = 8
/** The room one x-axis label takes, so that neighbours never overlap. */
const LABEL_ROOM_PX = 84

/** The grid step: the smallest 1, 2 or 5 × 10^n (at least 1, every metric counts whole units) covering a quarter of the tallest bar. */
function gridStep(tallest: number): number {
	const wanted = Math.max(1, tallest / GRID_LINES)
	const magnitude = 10 ** Math.floor(Math.log10(wanted))
	for (const step of [1, 2, 5]) if (step * magnitude >= wanted) return step * magnitude
	return 10 * magnitude
}

/** `yyyy-MM-dd HH:00` → `MM-dd HH:00`, `yyyy-MM-dd` → `MM-dd`: the range rarely spans years, and the tooltip has the full label. */
const shortLabel = (label: string) => label.slice(5)

type StackedBarChartProps = {
	periods: PeriodUsage[]
	models: ModelUsage[]
	metric: Metric
	/** The metric's translated name, the y axis's title. */
	metricName: string
	title: string
	/** `step` is the grid's, for axis labels that must tell neighbouring lines apart. */
	format: (value: number, step?: number) => string
	modelLabel: (model: string) => string
}

export function StackedBarChart({ periods, models, metric, metricName, title, format, modelLabel }: StackedBarChartProps) {
	const { t } = useTranslation()
	const titleId = useId()
	const { frame, triggers, tooltip } = useChartTooltip()
	const available = useElementWidth(frame, FALLBACK_WIDTH)
	if (periods.length === 0) return <p className="py-10 text-center text-sm text-muted-foreground">{t('暂无数据')}</p>

	const step = gridStep(Math.max(...periods.map((period) => period.total[metric])))
	const top = step * GRID_LINES
	const gridLabels = Array.from({ length: GRID_LINES + 1 }, (_, index) => format(step * index, step))
	const axisWidth = Math.max(...gridLabels.map((label) => label.length)) * CHARACTER_PX + AXIS_GAP_PX
	const width = Math.max(available, axisWidth + periods.length * MIN_SLOT_PX)
	const slot = (width - axisWidth) / periods.length
	const barWidth = Math.max(2, Math.min(MAX_BAR_PX, slot * 0.7))
	const scale = (value: number) => ((PLOT_BOTTOM - PLOT_TOP) * value) / top
	const labelEvery = Math.ceil(periods.length / Math.max(1, Math.floor((width - axisWidth) / LABEL_ROOM_PX)))

	const breakdown = (period: PeriodUsage) => () => ({
		title: `${period.label} · ${format(period.total[metric])}`,
		lines: models.flatMap((model, index) => {
			const value = period.byModel.get(model.model)?.[metric] ?? 0
			return value > 0 ? [{ label: modelLabel(model.model), value: format(value), colour: seriesColour(model.model, index) }] : []
		}),
	})

	return (
		<div ref={frame} className="relative overflow-x-auto" data-testid="stacked-bar-chart">
			<svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} className="block text-muted-foreground" role="img" aria-labelledby={titleId}>
				<title id={titleId}>{title}</title>
				<text x={0} y={FONT_PX} fontSize={FONT_PX} fill="currentColor" data-testid="y-axis-title">{metricName}</text>
				{gridLabels.map((label, index) => {
					const y = PLOT_BOTTOM - scale(step * index)
					return (
						<g key={index}>
							<line x1={axisWidth} x2={width} y1={y} y2={y} stroke="currentColor" strokeOpacity={index === 0 ? 0.5 : 0.15} />
							<text x={axisWidth - AXIS_GAP_PX / 2} y={y + FONT_PX / 3} textAnchor="end" fontSize={FONT_PX} fill="currentColor">{label}</text>
						</g>
					)
				})}
				{periods.map((period, periodIndex) => {
					const slotStart = axisWidth + periodIndex * slot
					const x = slotStart + (slot - barWidth) / 2
					let stacked = 0
					return (
						<g key={period.label} tabIndex={0} aria-label={period.label} data-period={period.label} className="outline-none focus-visible:opacity-80" {...triggers(breakdown(period))}>
							{/* The whole column answers the pointer, however short its bar. */}
							<rect x={slotStart} y={PLOT_TOP} width={slot} height={PLOT_BOTTOM - PLOT_TOP} fill="transparent" data-hit="" />
							{models.map((model, modelIndex) => {
								const value = period.byModel.get(model.model)?.[metric] ?? 0
								if (value <= 0) return null
								const height = scale(value)
								stacked += height
								return <rect key={model.model} x={x} y={PLOT_BOTTOM - stacked} width={barWidth} height={height} fill={seriesColour(model.model, modelIndex)} data-series={model.model} />
							})}
							{periodIndex % labelEvery === 0 && (
								<text x={x + barWidth / 2} y={PLOT_BOTTOM + FONT_PX + 6} textAnchor="middle" fontSize={FONT_PX} fill="currentColor" data-testid="x-axis-label">
									{shortLabel(period.label)}
								</text>
							)}
						</g>
					)
				})}
			</svg>
			{tooltip}
		</div>
	)
}
