import type { FormEvent } from 'react'
import { Input } from '@ui/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { toast } from '@ui/components/ui/toaster'
import { logTypeOptions } from '@ui/features/logs/log-display'
import { type LogFilters, toInputValue } from '@ui/features/logs/log-query'
import { useTranslation } from '@ui/i18n'
import { parseDateTime } from '@ui/lib/format'
import { useFormatTime } from '@ui/lib/time-zone'
import { Field } from '@ui/components/ui/field'
import { FilterActions } from '@ui/components/filter-actions'

export type FilterChanges = Record<string, string | number | null>

type LogFilterFormProps = {
	filters: LogFilters
	admin: boolean
	onApply: (changes: FilterChanges) => void
	onReset: () => void
}

/** Radix Select reserves the empty value; "all types" travels as this one instead. */
const ALL_TYPES = 'all'

/**
 * The filter bar. Text fields apply with the search button, the type at once. It is remounted
 * whenever the URL's filters (or the viewer's time zone) change, so the fields always show them.
 */
export function LogFilterForm({ filters, admin, onApply, onReset }: LogFilterFormProps) {
	const formatTime = useFormatTime()
	const start = toInputValue(formatTime(filters.start_timestamp))
	const end = toInputValue(formatTime(filters.end_timestamp))
	const key = [start, end, filters.token_name, filters.model_name, filters.group, filters.channel, filters.username].join('|')
	return <FilterFields key={key} filters={filters} start={start} end={end} admin={admin} onApply={onApply} onReset={onReset} />
}

function FilterFields({ filters, start, end, admin, onApply, onReset }: LogFilterFormProps & { start: string; end: string }) {
	const { t } = useTranslation()

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const text = (name: string) => String(form.get(name) ?? '').trim()
		const time = (name: string) => {
			const value = text(name)
			return value ? parseDateTime(value) : null
		}
		const startTime = time('start_time')
		const endTime = time('end_time')
		if (Number.isNaN(startTime) || Number.isNaN(endTime)) {
			toast.error(t('时间格式错误'))
			return
		}
		const changes: FilterChanges = {
			token_name: text('token_name'),
			model_name: text('model_name'),
			group: text('group'),
			start_timestamp: startTime,
			end_timestamp: endTime,
		}
		if (admin) Object.assign(changes, { channel: text('channel'), username: text('username') })
		onApply(changes)
	}

	return (
		<form onSubmit={handleSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label={t('筛选日志')}>
			<Field id="log-type" label="类型">
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
			</Field>
			<Field id="log-token-name" label="令牌名称">
				<Input id="log-token-name" name="token_name" defaultValue={filters.token_name} placeholder={t('可选值')} />
			</Field>
			<Field id="log-model-name" label="模型名称">
				<Input id="log-model-name" name="model_name" defaultValue={filters.model_name} placeholder={t('可选值')} />
			</Field>
			<Field id="log-group" label="分组">
				<Input id="log-group" name="group" defaultValue={filters.group} placeholder={t('可选值')} />
			</Field>
			<Field id="log-start-time" label="起始时间">
				<Input id="log-start-time" name="start_time" type="datetime-local" step={1} defaultValue={start} />
			</Field>
			<Field id="log-end-time" label="结束时间">
				<Input id="log-end-time" name="end_time" type="datetime-local" step={1} defaultValue={end} />
			</Field>
			{admin && (
				<>
					<Field id="log-channel" label="渠道 ID">
						<Input id="log-channel" name="channel" type="number" min={0} inputMode="numeric" defaultValue={filters.channel} placeholder={t('可选值')} />
					</Field>
					<Field id="log-username" label="用户名称">
						<Input id="log-username" name="username" defaultValue={filters.username} placeholder={t('可选值')} />
					</Field>
				</>
			)}
			<FilterActions onReset={onReset} />
		</form>
	)
}
