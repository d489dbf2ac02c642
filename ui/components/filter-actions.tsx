import { RotateCcwIcon, SearchIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'

/** The query and reset buttons closing a filter form (the form's submit runs the query). */
export function FilterActions({ onReset }: { onReset: () => void }) {
	const { t } = useTranslation()
	return (
		<div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
			<Button type="submit">
				<SearchIcon />
				{t('查询')}
			</Button>
			<Button type="button" variant="outline" onClick={onReset}>
				<RotateCcwIcon />
				{t('重置')}
			</Button>
		</div>
	)
}
