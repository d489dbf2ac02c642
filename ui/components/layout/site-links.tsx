import { NavLink } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { topLinks } from '@ui/components/layout/menu'
import { useTranslation } from '@ui/i18n'
import { useCurrentUser } from '@ui/lib/session'
import { useStatus } from '@ui/lib/status'
import { cn } from '@ui/lib/utils'

/**
 * The header's links in the phone drawer: in the console, the site's own pages (home, pricing,
 * about) under the side menu; elsewhere every link and, for a visitor, sign-in and registration.
 */
export function SiteLinks({ inConsole, onNavigate }: { inConsole: boolean; onNavigate: () => void }) {
	const { t } = useTranslation()
	const status = useStatus()
	const user = useCurrentUser()
	const links = inConsole ? topLinks.filter((link) => link.to !== '/token') : topLinks
	return (
		<nav aria-label={t('站点导航')} className={cn('flex flex-col gap-1 p-2', inConsole && 'border-t')}>
			{links.map((link) => (
				<NavLink
					key={link.to}
					to={link.to}
					end={link.to === '/'}
					onClick={onNavigate}
					className={({ isActive }) => cn('flex h-9 items-center rounded-md px-3 text-sm text-muted-foreground hover:bg-accent hover:text-foreground', isActive && 'bg-accent font-medium text-foreground')}
				>
					{t(link.label)}
				</NavLink>
			))}
			{!user && (
				<div className="mt-2 flex gap-2 px-1">
					<Button asChild variant="outline" size="sm" className="flex-1">
						<NavLink to="/login" onClick={onNavigate}>{t('登录')}</NavLink>
					</Button>
					{status.register_enabled && (
						<Button asChild size="sm" className="flex-1">
							<NavLink to="/register" onClick={onNavigate}>{t('注册')}</NavLink>
						</Button>
					)}
				</div>
			)}
		</nav>
	)
}
