import { useTranslation } from '@ui/i18n'

/** Placeholder: this page is being built. */
export function Component() {
	const { t } = useTranslation()
	return <h1 className="text-xl font-semibold">{t('日志')}</h1>
}
