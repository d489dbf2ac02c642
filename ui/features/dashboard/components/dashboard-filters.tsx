import { useState } from 'react'
import { DATA_EXPORT_GRANULARITIES } from '@shared/quota-data-constants'
import type { DataGranularity } from '@shared/quota-data'
import { FilterForm } from '@ui/components/filter-form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import type { DashboardFilters } from '@ui/features/dashboard/dashboard-query'
import { useTranslation } from '@ui/i18n'

export type DashboardFilterChanges = Record<keyof DashboardFilters, string | number | null>

export const GRANULARITY_LABELS: Record<DataGranularity, string> = { hour: '小时', day: '天', week: '周' }

type DashboardFilterFormProps = {
	filters: DashboardFilters
	admin: boolean
	onApply: (changes: DashboardFilterChanges) => void
	onReset: () => void
}

/** The granularity is chosen here and applied with the range, carried by a hidden input of its name. */
function GranularitySelect({ initial }: { initial: DataGranularity }) {
	const { t } = useTranslation()
	const [granularity, setGranularity] = useState<DataGranularity>(initial)
	return (
		<>
			<Select value={granularity} onValueChange={(value) => setGranularity(value as DataGranularity)}>
				<SelectTrigger id="dashboard-granularity" className="w-full">
					<SelectValue />
				</SelectTrigger>
				<SelectContent>
					{DATA_EXPORT_GRANULARITIES.map((option) => <SelectItem key={option} value={option}>{t(GRANULARITY_LABELS[option])}</SelectItem>)}
				</SelectContent>
			</Select>
			<input type="hidden" name="granularity" value={granularity} />
		</>
	)
}

/** Range, granularity and (admins) username, applied together with the search button. */
export function DashboardFilterForm({ filters, admin, onApply, onReset }: DashboardFilterFormProps) {
	return (
		<FilterForm
			label="筛选数据"
			idPrefix="dashboard"
			start={filters.start_timestamp}
			end={filters.end_timestamp}
			rangeInOrder
			remountKey={filters.granularity}
			after={[
				{ id: 'dashboard-granularity', label: '时间粒度', name: 'granularity', control: <GranularitySelect initial={filters.granularity} /> },
				...(admin ? [{ id: 'dashboard-username', label: '用户名称', name: 'username', value: filters.username, placeholder: '全部用户' }] : []),
			]}
			onApply={(changes) => onApply({ start_timestamp: changes.start_timestamp ?? null, end_timestamp: changes.end_timestamp ?? null, granularity: changes.granularity ?? null, username: admin ? changes.username ?? '' : null })}
			onReset={onReset}
		/>
	)
}
