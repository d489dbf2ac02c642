import { SearchToolbar, searchText } from '@ui/components/search-toolbar'
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
	return (
		<SearchToolbar
			formKey={`${filters.keyword}\n${filters.token}`}
			fields={<>
				<Input name="keyword" defaultValue={filters.keyword} aria-label={t('令牌名称')} placeholder={t('搜索令牌名称')} className="w-48 max-[600px]:w-full" />
				<Input name="token" defaultValue={filters.token} aria-label={t('令牌密钥')} placeholder={t('搜索令牌密钥')} className="w-56 max-[600px]:w-full" />
			</>}
			onSearch={(form) => onSearch({ keyword: searchText(form, 'keyword'), token: searchText(form, 'token') })}
			addLabel={t('添加令牌')}
			copyLabel={t('复制所选令牌')}
			onAdd={onAdd}
			onCopySelected={onCopySelected}
		/>
	)
}
