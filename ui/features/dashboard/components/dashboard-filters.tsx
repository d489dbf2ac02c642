import { type FormEvent, useState } from 'react'
import { DATA_EXPORT_GRANULARITIES } from '@shared/quota-data-constants'
import type { DataGranularity } from '@shared/quota-data'
import { Input } from '@ui/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { toast } from '@ui/components/ui/toaster'
import type { DashboardFilters } from '@ui/features/dashboard/dashboard-query'
import { useTranslation } from '@ui/i18n'
import { parseDateTime } from '@ui/lib/format'
import { useFormatTime } from '@ui/lib/time-zone'
import { Field } from '@ui/components/ui/field'
import { FilterActions } from '@ui/components/filter-actions'

export type DashboardFilterChanges = Record<keyof DashboardFilters, string | number | null>

export const GRANULARITY_LABELS: Record<DataGranularity, string> = { hour: '小时', day: '天', week: '周' }

type DashboardFilterFormProps = {
	filters: DashboardFilters
	admin: boolean
	onApply: (changes: DashboardFilterChanges) => void
	onReset: () => void
}

/** `yyyy-MM-dd HH:mm:ss` as a datetime-local input wants it. */
const toInputValue = (formatted: string) => (formatted === '-' ? '' : formatted.replace(' ', 'T'))

/** Range, granularity and (admins) username; remounted when the URL's filters or the time zone change. */
export function DashboardFilterForm(props: DashboardFilterFormProps) {
	const formatTime = useFormatTime()
	const start = toInputValue(formatTime(props.filters.start_timestamp))
	const end = toInputValue(formatTime(props.filters.end_timestamp))
	const key = [start, end, props.filters.granularity, props.filters.username].join('|')
	return <FilterFields key={key} {...props} start={start} end={end} />
}

function FilterFields({ filters, admin, onApply, onReset, start, end }: DashboardFilterFormProps & { start: string; end: string }) {
	const { t } = useTranslation()
	const [granularity, setGranularity] = useState<DataGranularity>(filters.granularity)

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const text = (name: string) => String(form.get(name) ?? '').trim()
		const startTime = text('start_time') ? parseDateTime(text('start_time')) : null
		const endTime = text('end_time') ? parseDateTime(text('end_time')) : null
		if (Number.isNaN(startTime) || Number.isNaN(endTime)) {
			toast.error(t('时间格式错误'))
			return
		}
		if (startTime !== null && endTime !== null && startTime > endTime) {
			toast.error(t('起始时间不能晚于结束时间'))
			return
		}
		onApply({ start_timestamp: startTime, end_timestamp: endTime, granularity, username: admin ? text('username') : null })
	}

	return (
		<form onSubmit={handleSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label={t('筛选数据')}>
			<Field id="dashboard-start-time" label="起始时间">
				<Input id="dashboard-start-time" name="start_time" type="datetime-local" step={1} defaultValue={start} />
			</Field>
			<Field id="dashboard-end-time" label="结束时间">
				<Input id="dashboard-end-time" name="end_time" type="datetime-local" step={1} defaultValue={end} />
			</Field>
			<Field id="dashboard-granularity" label="时间粒度">
				<Select value={granularity} onValueChange={(value) => setGranularity(value as DataGranularity)}>
					<SelectTrigger id="dashboard-granularity" className="w-full">
						<SelectValue />
					</SelectTrigger>
					<SelectContent>
						{DATA_EXPORT_GRANULARITIES.map((option) => <SelectItem key={option} value={option}>{t(GRANULARITY_LABELS[option])}</SelectItem>)}
					</SelectContent>
				</Select>
			</Field>
			{admin && (
				<Field id="dashboard-username" label="用户名称">
					<Input id="dashboard-username" name="username" defaultValue={filters.username} placeholder={t('全部用户')} />
				</Field>
			)}
			<FilterActions onReset={onReset} />
		</form>
	)
}
