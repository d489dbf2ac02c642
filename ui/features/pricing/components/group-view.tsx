import { groupRatioTier } from '@shared/pricing-constants'
import { Badge } from '@ui/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'
import { builtInText } from '@ui/lib/built-in-texts'

type GroupViewProps = {
	/** Usable group → description. */
	groups: Record<string, string>
	ratios: Record<string, number>
	selected: string
	onSelect: (group: string) => void
}

/** The visitor's usable groups, each with its ratio tag (docs/specification/pricing.md#the-pricing-page colours); the chosen one prices the table. */
export function GroupView({ groups, ratios, selected, onSelect }: GroupViewProps) {
	const { t } = useTranslation()
	const names = Object.keys(groups)
	return (
		<Card data-testid="group-view">
			<CardHeader>
				<CardTitle className="text-base">{t('分组')}</CardTitle>
				<CardDescription>{t('选择一个可用分组，表格中的价格按该分组的倍率计算')}</CardDescription>
			</CardHeader>
			<CardContent>
				{names.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('暂无可用分组')}</p>
				) : (
					<div role="radiogroup" aria-label={t('可用分组')} className="flex flex-wrap gap-2">
						{names.map((name) => {
							const ratio = ratios[name] ?? 1
							const active = name === selected
							return (
								<button
									key={name}
									type="button"
									role="radio"
									aria-checked={active}
									data-group={name}
									onClick={() => onSelect(name)}
									className={cn(
										'flex items-center gap-2 rounded-md border px-3 py-2 text-left text-sm transition-colors hover:bg-accent',
										active && 'border-primary bg-accent ring-1 ring-primary',
									)}
								>
									<span className="font-medium">{name}</span>
									{groups[name] && groups[name] !== name && <span className="text-xs text-muted-foreground">{t(builtInText(groups[name]))}</span>}
									<Badge variant={groupRatioTier(ratio)} data-testid="group-ratio" data-tier={groupRatioTier(ratio)}>{t('{ratio} 倍率', { ratio })}</Badge>
								</button>
							)
						})}
					</div>
				)}
			</CardContent>
		</Card>
	)
}
