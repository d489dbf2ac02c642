import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'

/**
 * On a demo site (`DemoSiteEnabled`), a notice above every page of the site and the console: what
 * visitors enter may be seen by others and reset, and the super admin's sign-in stays as published
 * (docs/guide/demo-site.md).
 */
export function DemoSiteNotice() {
	const { t } = useTranslation()
	const status = useStatus()
	if (!status.demo_site_enabled) return null
	return (
		<p role="note" data-testid="demo-site-notice" className="border-b border-amber-300 bg-amber-50 px-6 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100 max-[600px]:px-3">
			{t('这是一个演示站点：其他访客能看到这里的数据，数据可能随时被重置。请勿填写真实的密钥、密码或个人信息。')}
		</p>
	)
}
