import { SearchToolbar, searchText } from '@ui/components/search-toolbar'
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
	return (
		<SearchToolbar
			formKey={keyword}
			fields={<Input name="keyword" defaultValue={keyword} aria-label={t('兑换码 ID 或名称')} placeholder={t('搜索兑换码的 ID 和名称')} className="w-64 max-[600px]:w-full" />}
			onSearch={(form) => onSearch(searchText(form, 'keyword'))}
			addLabel={t('添加兑换码')}
			copyLabel={t('复制所选兑换码')}
			onAdd={onAdd}
			onCopySelected={onCopySelected}
		/>
	)
}
