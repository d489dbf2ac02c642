import { useState } from 'react'
import { useLoaderData } from 'react-router'
import { useTranslation } from '@ui/i18n'
import { useCurrentUser } from '@ui/lib/session'
import { GroupView } from '@ui/features/pricing/components/group-view'
import { PricingTable } from '@ui/features/pricing/components/pricing-table'
import { PricingToolbar, type PricingView } from '@ui/features/pricing/components/pricing-toolbar'
import { initialGroup } from '@ui/features/pricing/pricing-display'
import type { PricingPageData } from '@ui/features/pricing/pricing-route'

/** `/pricing` (docs/specification/pricing.md#the-pricing-page): the group view, then the model table priced in the chosen group. */
export function PricingPage() {
	const { t } = useTranslation()
	const { data, group_ratio, usable_group, error } = useLoaderData() as PricingPageData
	const user = useCurrentUser()
	const [group, setGroup] = useState(() => initialGroup(usable_group, user?.group))
	const [view, setView] = useState<PricingView>({ search: '', unit: 'million', showRatios: false, onlyGroup: false, currency: 'USD' })
	const ratio = group_ratio[group] ?? 1
	const keyword = view.search.trim().toLowerCase()
	const entries = data.filter((entry) => (!keyword || entry.model_name.toLowerCase().includes(keyword)) && (!view.onlyGroup || entry.enable_groups.includes(group)))

	return (
		<div className="mx-auto flex w-full max-w-6xl flex-col gap-4 py-6">
			<div className="flex flex-col gap-1">
				<h1 className="text-2xl font-semibold">{t('模型定价')}</h1>
				<p className="text-sm text-muted-foreground">{t('价格以美元计：按量计费的模型按提示和补全 token 计价，按次计费的模型每次调用固定价格；均乘以所选分组的倍率。')}</p>
			</div>
			{error ? (
				<p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">{t(error)}</p>
			) : (
				<>
					<GroupView groups={usable_group} ratios={group_ratio} selected={group} onSelect={setGroup} />
					<PricingToolbar view={view} onChange={setView} />
					<PricingTable entries={entries} usableGroups={usable_group} selectedGroup={group} groupRatio={ratio} unit={view.unit} showRatios={view.showRatios} currency={view.currency} />
				</>
			)}
		</div>
	)
}
