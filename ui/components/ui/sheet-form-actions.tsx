import { Button } from '@ui/components/ui/button'
import { SheetFooter } from '@ui/components/ui/sheet'
import { useTranslation } from '@ui/i18n'

/** The cancel and submit buttons closing a drawer's form (the form's submit does the work). */
export function SheetFormActions({ onCancel, submitting }: { onCancel: () => void; submitting: boolean }) {
	const { t } = useTranslation()
	return (
		<SheetFooter>
			<Button type="button" variant="outline" onClick={onCancel}>{t('取消')}</Button>
			<Button type="submit" disabled={submitting}>{t('提交')}</Button>
		</SheetFooter>
	)
}
