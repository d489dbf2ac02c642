import type { Metric, RankedUsage } from '@ui/features/dashboard/usage-summary'
import { Card, CardContent, CardHeader } from '@ui/components/ui/card'
import { useTranslation } from '@ui/i18n'

type UsageRankingProps = {
	/** Translated. */
	title: string
	entries: RankedUsage[]
	metric: Metric
	/** The range's total of the metric: each entry's bar is its share of it. */
	total: number
	format: (value: number) => string
	label?: (name: string) => string
	testId: string
}

/** The range's top models or users by the chosen metric: name, amount, and a bar of its share. */
export function UsageRanking({ title, entries, metric, total, format, label = (name) => name, testId }: UsageRankingProps) {
	const { t } = useTranslation()
	return (
		<Card className="gap-3">
			<CardHeader><h2 className="font-semibold">{title}</h2></CardHeader>
			<CardContent>
				{entries.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('暂无数据')}</p>
				) : (
					<ol className="flex flex-col gap-2.5 text-sm" data-testid={testId}>
						{entries.map((entry, index) => {
							const share = total > 0 ? (entry[metric] / total) * 100 : 0
							return (
								<li key={entry.name} className="flex flex-col gap-1" data-name={entry.name} data-value={entry[metric]}>
									<span className="flex items-baseline gap-2">
										<span className="w-4 text-muted-foreground tabular-nums">{index + 1}</span>
										<span className="min-w-0 flex-1 truncate">{label(entry.name)}</span>
										<span className="tabular-nums">{format(entry[metric])}</span>
										<span className="w-12 text-right text-muted-foreground tabular-nums">{`${share.toFixed(1)}%`}</span>
									</span>
									<span className="ml-6 h-1.5 rounded-full bg-muted" aria-hidden="true">
										<span className="block h-full rounded-full bg-primary/70" style={{ width: `${share}%` }} />
									</span>
								</li>
							)
						})}
					</ol>
				)}
			</CardContent>
		</Card>
	)
}
