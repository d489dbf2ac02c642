import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import type { UserFilters as Filters } from '@ui/features/users/api'
import { useTranslation } from '@ui/i18n'

/** Radix Select has no empty value; this stands for "any group" (an impossible group name). */
const anyGroup = '*'

type UserFiltersProps = { filters: Filters; groups: string[]; onSearch: (filters: Filters) => void }

/** Mount it keyed by the URL's filters so that the back button refills the fields. */
export function UserFilters({ filters, groups, onSearch }: UserFiltersProps) {
	const { t } = useTranslation()
	const [keyword, setKeyword] = useState(filters.keyword)
	const [group, setGroup] = useState(filters.group)
	const choices = group && !groups.includes(group) ? [...groups, group] : groups

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		onSearch({ keyword: keyword.trim(), group })
	}

	return (
		<form role="search" onSubmit={handleSubmit} className="flex flex-wrap items-center gap-2">
			<Input
				aria-label={t('搜索关键字')}
				className="w-84 max-[600px]:w-full"
				placeholder={t('搜索用户的 ID、用户名、显示名称或邮箱地址')}
				value={keyword}
				onChange={(event) => setKeyword(event.target.value)}
			/>
			<Select value={group || anyGroup} onValueChange={(value) => setGroup(value === anyGroup ? '' : value)}>
				<SelectTrigger aria-label={t('分组')} className="w-40">
					<SelectValue />
				</SelectTrigger>
				<SelectContent>
					<SelectItem value={anyGroup}>{t('全部分组')}</SelectItem>
					{choices.map((name) => (
						<SelectItem key={name} value={name}>{name}</SelectItem>
					))}
				</SelectContent>
			</Select>
			<Button type="submit" variant="secondary">{t('查询')}</Button>
			<Button type="button" variant="ghost" onClick={() => onSearch({ keyword: '', group: '' })}>{t('重置')}</Button>
		</form>
	)
}
