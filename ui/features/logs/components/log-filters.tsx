import { FilterForm, type FilterChanges } from '@ui/components/filter-form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { logTypeOptions } from '@ui/features/logs/log-display'
import type { LogFilters } from '@ui/features/logs/log-query'
import { useTranslation } from '@ui/i18n'

export type { FilterChanges }

type LogFilterFormProps = {
	filters: LogFilters
	admin: boolean
	onApply: (changes: FilterChanges) => void
	onReset: () => void
}

/** Radix Select reserves the empty value; "all types" travels as this one instead. */
const ALL_TYPES = 'all'

/** The log page's filter bar: the type applies at once, the text fields and range with the search button. */
export function LogFilterForm({ filters, admin, onApply, onReset }: LogFilterFormProps) {
	const { t } = useTranslation()
	const typeSelect = (
		<Select value={filters.type || ALL_TYPES} onValueChange={(value) => onApply({ type: value === ALL_TYPES ? null : value })}>
			<SelectTrigger id="log-type" className="w-full">
				<SelectValue />
			</SelectTrigger>
			<SelectContent>
				{logTypeOptions.map((option) => (
					<SelectItem key={option.label} value={option.value || ALL_TYPES}>{t(option.label)}</SelectItem>
				))}
			</SelectContent>
		</Select>
	)
	return (
		<FilterForm
			label="筛选日志"
			idPrefix="log"
			start={filters.start_timestamp}
			end={filters.end_timestamp}
			before={[
				{ id: 'log-type', label: '类型', control: typeSelect },
				{ id: 'log-token-name', label: '令牌名称', name: 'token_name', value: filters.token_name },
				{ id: 'log-model-name', label: '模型名称', name: 'model_name', value: filters.model_name },
				{ id: 'log-group', label: '分组', name: 'group', value: filters.group },
			]}
			after={admin ? [
				{ id: 'log-channel', label: '渠道 ID', name: 'channel', value: filters.channel, numeric: true },
				{ id: 'log-username', label: '用户名称', name: 'username', value: filters.username },
			] : []}
			onApply={onApply}
			onReset={onReset}
		/>
	)
}
