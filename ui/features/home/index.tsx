import { Link } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'

/** Placeholder until the console's home page is built. */
export function HomePage() {
	const { t } = useTranslation()
	const status = useStatus()
	return (
		<div className="flex flex-col items-center justify-center gap-4 py-16 text-center">
			<img src={status.logo} alt="" className="size-12 rounded-md" />
			<h1 className="text-2xl font-semibold">{status.system_name}</h1>
			<p className="text-muted-foreground">{t('控制台的其他页面还在建设中。')}</p>
			<Button asChild>
				<Link to="/login">{t('登录')}</Link>
			</Button>
		</div>
	)
}
