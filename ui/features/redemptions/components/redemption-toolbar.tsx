import { CopyIcon, PlusIcon, SearchIcon } from 'lucide-react'
import type { FormEvent } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { useTranslation } from '@ui/i18n'

type RedemptionToolbarProps = {
	keyword: string
	onSearch: (keyword: string) => void
	onAdd: () => void
	onCopySelected: () => void
}

/** Search by id or name (kept in the URL), add, copy the selected codes' keys. */
export function RedemptionToolbar({ keyword, onSearch, onAdd, onCopySelected }: RedemptionToolbarProps) {
	const { t } = useTranslation()

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		onSearch(String(new FormData(event.currentTarget).get('keyword') ?? '').trim())
	}

	return (
		<div className="flex flex-wrap items-center justify-between gap-2">
			{/* keyed by the URL's keyword so that back and forward refill the field */}
			<form key={keyword} role="search" onSubmit={submit} className="flex flex-wrap items-center gap-2 max-[600px]:w-full">
				<Input name="keyword" defaultValue={keyword} aria-label={t('兑换码 ID 或名称')} placeholder={t('搜索兑换码的 ID 和名称')} className="w-64 max-[600px]:w-full" />
				<Button type="submit" variant="secondary">
					<SearchIcon />
					{t('搜索')}
				</Button>
			</form>
			<div className="flex flex-wrap gap-2">
				<Button onClick={onAdd}>
					<PlusIcon />
					{t('添加兑换码')}
				</Button>
				<Button variant="outline" onClick={onCopySelected}>
					<CopyIcon />
					{t('复制所选兑换码')}
				</Button>
			</div>
		</div>
	)
}
