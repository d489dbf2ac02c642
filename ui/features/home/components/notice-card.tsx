import { Card, CardContent, CardHeader, CardTitle } from '@ui/components/ui/card'
import type { AdminContentView } from '@ui/features/home/admin-content-view'
import { AdminContent } from '@ui/features/home/components/admin-content'
import { useTranslation } from '@ui/i18n'

/** The super admin's notice on the home page, above whatever the home page shows. */
export function NoticeCard({ notice }: { notice: AdminContentView }) {
	const { t } = useTranslation()
	return (
		<Card data-testid="site-notice">
			<CardHeader>
				<CardTitle className="text-lg">{t('公告')}</CardTitle>
			</CardHeader>
			<CardContent>
				<AdminContent view={notice} title={t('公告')} />
			</CardContent>
		</Card>
	)
}
