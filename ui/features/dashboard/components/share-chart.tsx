import { useId } from 'react'
import type { Metric, ModelUsage } from '@ui/features/dashboard/usage-summary'
import { seriesColour } from '@ui/features/dashboard/components/chart-palette'
import { useChartTooltip } from '@ui/features/dashboard/components/chart-tooltip'
import { useTranslation } from '@ui/i18n'

const RADIUS = 15.9155 // circumference 100: a share in percent is its dash length
const CIRCUMFERENCE = 100

type ShareChartProps = {
	models: ModelUsage[]
	metric: Metric
	/** The metric's translated name. */
	metricName: string
	title: string
	format: (value: number) => string
	modelLabel: (model: string) => string
}

/** A donut of each model's share of the metric, with a legend that also carries the numbers; a slice (hovered or focused) shows its model, amount and share in a tooltip. */
export function ShareChart({ models, metric, metricName, title, format, modelLabel }: ShareChartProps) {
	const { t } = useTranslation()
	const titleId = useId()
	const { frame, triggers, tooltip } = useChartTooltip()
	const total = models.reduce((sum, model) => sum + model[metric], 0)
	let offset = 0
	const segments = models.map((model, index) => {
		const share = total > 0 ? (model[metric] / total) * CIRCUMFERENCE : 0
		const segment = { model: model.model, value: model[metric], share, offset, colour: seriesColour(model.model, index) }
		offset += share
		return segment
	})
	return (
		<figure className="flex flex-col items-center gap-4 sm:flex-row sm:items-start lg:flex-col lg:items-center" data-testid="share-chart">
			<div ref={frame} className="relative shrink-0">
			<svg viewBox="0 0 42 42" className="size-40 -rotate-90" role="img" aria-labelledby={titleId}>
				<title id={titleId}>{title}</title>
				<circle cx="21" cy="21" r={RADIUS} fill="none" stroke="currentColor" strokeWidth="6" className="text-muted" />
				{segments.filter((segment) => segment.share > 0).map((segment) => (
					<circle key={segment.model} cx="21" cy="21" r={RADIUS} fill="none" stroke={segment.colour} strokeWidth="6" tabIndex={0}
						aria-label={`${modelLabel(segment.model)}: ${segment.share.toFixed(1)}%`} data-slice={segment.model} className="outline-none focus-visible:opacity-80"
						strokeDasharray={`${segment.share} ${CIRCUMFERENCE - segment.share}`} strokeDashoffset={-segment.offset}
						{...triggers(() => ({ title: modelLabel(segment.model), lines: [{ label: metricName, value: format(segment.value), colour: segment.colour }, { label: t('占比'), value: `${segment.share.toFixed(1)}%` }] }))} />
				))}
			</svg>
			{tooltip}
			</div>
			<figcaption className="flex w-full flex-col gap-1.5 text-sm">
				<span className="sr-only">{title}</span>
				{models.length === 0 && <span className="text-muted-foreground">{t('暂无数据')}</span>}
				{models.map((model, index) => (
					<span key={model.model} className="flex items-center gap-2" data-model={model.model} data-value={model[metric]}>
						<span className="size-3 shrink-0 rounded-sm" style={{ background: seriesColour(model.model, index) }} aria-hidden="true" />
						<span className="min-w-0 flex-1 truncate">{modelLabel(model.model)}</span>
						<span className="tabular-nums">{format(model[metric])}</span>
						<span className="w-14 text-right text-muted-foreground tabular-nums">{total > 0 ? `${((model[metric] / total) * 100).toFixed(1)}%` : '-'}</span>
					</span>
				))}
			</figcaption>
		</figure>
	)
}
