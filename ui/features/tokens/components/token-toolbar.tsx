import { CopyIcon, PlusIcon, SearchIcon } from 'lucide-react'
import type { FormEvent } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { useTranslation } from '@ui/i18n'
import type { TokenFilters } from '@ui/features/tokens/api'

type TokenToolbarProps = {
	filters: TokenFilters
	onSearch: (filters: TokenFilters) => void
	onAdd: () => void
	onCopySelected: () => void
}

/** Search by name and by key (kept in the URL), add, copy the selected tokens. */
export function TokenToolbar({ filters, onSearch, onAdd, onCopySelected }: TokenToolbarProps) {
	const { t } = useTranslation()

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		onSearch({ keyword: String(form.get('keyword') ?? '').trim(), token: String(form.get('token') ?? '').trim() })
	}

	return (
		<div className="flex flex-wrap items-center justify-between gap-2">
			{/* keyed by the URL's filters so that back and forward refill the fields */}
			<form key={`${filters.keyword}\n${filters.token}`} role="search" onSubmit={submit} className="flex flex-wrap items-center gap-2 max-[600px]:w-full">
				<Input name="keyword" defaultValue={filters.keyword} aria-label={t('令牌名称')} placeholder={t('搜索令牌名称')} className="w-48 max-[600px]:w-full" />
				<Input name="token" defaultValue={filters.token} aria-label={t('令牌密钥')} placeholder={t('搜索令牌密钥')} className="w-56 max-[600px]:w-full" />
				<Button type="submit" variant="secondary">
					<SearchIcon />
					{t('搜索')}
				</Button>
			</form>
			<div className="flex flex-wrap gap-2">
				<Button onClick={onAdd}>
					<PlusIcon />
					{t('添加令牌')}
				</Button>
				<Button variant="outline" onClick={onCopySelected}>
					<CopyIcon />
					{t('复制所选令牌')}
				</Button>
			</div>
		</div>
	)
}
