import { SearchIcon } from 'lucide-react'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Switch } from '@ui/components/ui/switch'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import type { Currency, TokenUnit } from '@ui/features/pricing/pricing-display'

export type PricingView = {
	search: string
	unit: TokenUnit
	showRatios: boolean
	/** Only the models the chosen group serves. */
	onlyGroup: boolean
	/** USD always; yuan only when the server displays amounts in currency. */
	currency: Currency
}

/** Model search and the table's toggles. */
export function PricingToolbar({ view, onChange }: { view: PricingView; onChange: (view: PricingView) => void }) {
	const { t } = useTranslation()
	const status = useStatus()
	const update = (changes: Partial<PricingView>) => onChange({ ...view, ...changes })
	return (
		<div className="flex flex-wrap items-center justify-between gap-3">
			<div role="search" className="relative w-64 max-[600px]:w-full">
				<SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
				<Input
					type="search"
					value={view.search}
					onChange={(event) => update({ search: event.target.value })}
					aria-label={t('搜索模型名称')}
					placeholder={t('搜索模型名称')}
					className="pl-8"
				/>
			</div>
			<div className="flex flex-wrap items-center gap-4">
				<Label className="font-normal">
					<Switch checked={view.unit === 'thousand'} onCheckedChange={(checked) => update({ unit: checked ? 'thousand' : 'million' })} aria-label={t('按千 tokens 显示价格')} />
					{t('按千 tokens 显示价格')}
				</Label>
				<Label className="font-normal">
					<Switch checked={view.showRatios} onCheckedChange={(showRatios) => update({ showRatios })} aria-label={t('显示倍率')} />
					{t('显示倍率')}
				</Label>
				{status.display_in_currency && (
					<Label className="font-normal">
						<Switch checked={view.currency === 'CNY'} onCheckedChange={(checked) => update({ currency: checked ? 'CNY' : 'USD' })} aria-label={t('以人民币显示价格')} />
						{t('以人民币显示价格')}
					</Label>
				)}
				<Label className="font-normal">
					<Switch checked={view.onlyGroup} onCheckedChange={(onlyGroup) => update({ onlyGroup })} aria-label={t('仅显示所选分组可用的模型')} />
					{t('仅显示所选分组可用的模型')}
				</Label>
			</div>
		</div>
	)
}
