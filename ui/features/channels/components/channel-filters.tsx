import { SearchIcon } from 'lucide-react'
import type { FormEvent } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { Switch } from '@ui/components/ui/switch'
import type { ChannelFilters as Filters } from '@ui/features/channels/api'
import { useTranslation } from '@ui/i18n'

/** Radix Select has no empty value: this one stands for "every group". */
const ALL_GROUPS = '__all__'

type ChannelFiltersProps = {
	filters: Filters
	groups: string[]
	batchMode: boolean
	onSearch: (search: { keyword: string; model: string; group: string }) => void
	onIdSortChange: (idSort: boolean) => void
	onBatchModeChange: (batchMode: boolean) => void
	onTagModeChange: (tagMode: boolean) => void
}

/** Search by keyword, model and group; the id-sort, batch and tag-aggregation switches. */
export function ChannelFilters({ filters, groups, batchMode, onSearch, onIdSortChange, onBatchModeChange, onTagModeChange }: ChannelFiltersProps) {
	const { t } = useTranslation()

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const group = String(form.get('group') ?? '')
		onSearch({
			keyword: String(form.get('keyword') ?? '').trim(),
			model: String(form.get('model') ?? '').trim(),
			group: group === ALL_GROUPS ? '' : group,
		})
	}

	const formKey = `${filters.keyword}\n${filters.model}\n${filters.group}`
	return (
		<div className="flex flex-col gap-3">
			<form key={formKey} role="search" className="flex flex-wrap items-end gap-2" onSubmit={handleSubmit}>
				<Input name="keyword" aria-label={t('搜索渠道 ID、名称或 Base URL')} placeholder={t('搜索渠道 ID、名称或 Base URL')} defaultValue={filters.keyword} className="w-72 max-[600px]:w-full" />
				<Input name="model" aria-label={t('模型关键字')} placeholder={t('模型关键字')} defaultValue={filters.model} className="w-48" />
				<Select name="group" defaultValue={filters.group || ALL_GROUPS}>
					<SelectTrigger className="w-40" aria-label={t('分组')}>
						<SelectValue />
					</SelectTrigger>
					<SelectContent>
						<SelectItem value={ALL_GROUPS}>{t('全部分组')}</SelectItem>
						{groups.map((group) => <SelectItem key={group} value={group}>{group}</SelectItem>)}
					</SelectContent>
				</Select>
				<Button type="submit" variant="secondary">
					<SearchIcon />
					{t('搜索')}
				</Button>
			</form>
			<div className="flex flex-wrap items-center gap-5 text-sm">
				<Label>
					<Switch checked={filters.idSort} onCheckedChange={onIdSortChange} aria-label={t('ID 排序')} />
					{t('ID 排序')}
				</Label>
				<Label>
					<Switch checked={batchMode} onCheckedChange={onBatchModeChange} aria-label={t('批量操作')} />
					{t('批量操作')}
				</Label>
				<Label>
					<Switch checked={filters.tagMode} onCheckedChange={onTagModeChange} aria-label={t('标签聚合模式')} />
					{t('标签聚合模式')}
				</Label>
			</div>
		</div>
	)
}
