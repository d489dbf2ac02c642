import { LogOutIcon, MenuIcon, UserIcon } from 'lucide-react'
import { Link, NavLink, useNavigate } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { topLinks } from '@ui/components/layout/menu'
import { PreferenceSwitches } from '@ui/components/layout/preference-switches'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { useCurrentUser, useSession } from '@ui/lib/session'
import { useStatus } from '@ui/lib/status'
import { cn } from '@ui/lib/utils'

export function Header({ onMenuClick }: { onMenuClick?: () => void }) {
	const { t } = useTranslation()
	const status = useStatus()
	const user = useCurrentUser()
	const session = useSession()
	const navigate = useNavigate()

	async function logout() {
		await browserApi.request('/api/user/logout', { handleUnauthorized: false }).catch(() => undefined)
		session.setUser(null)
		navigate('/login')
	}

	return (
		<header className="sticky top-0 z-40 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:px-4">
			{onMenuClick && (
				<Button variant="ghost" size="icon" className="min-[601px]:hidden" aria-label={t('菜单')} onClick={onMenuClick}>
					<MenuIcon />
				</Button>
			)}
			<Link to="/" className="flex items-center gap-2 font-semibold">
				<img src={status.logo} alt="" className="size-7 rounded" />
				<span className="max-[600px]:hidden">{status.system_name}</span>
			</Link>
			<nav className="ml-2 flex items-center gap-1 max-[600px]:hidden">
				{topLinks.map((link) => (
					<NavLink
						key={link.to}
						to={link.to}
						end={link.to === '/'}
						className={({ isActive }) => cn('rounded-md px-3 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground', isActive && 'text-foreground font-medium')}
					>
						{t(link.label)}
					</NavLink>
				))}
			</nav>
			<div className="ml-auto flex items-center gap-1">
				<PreferenceSwitches />
				{user ? (
					<DropdownMenu>
						<DropdownMenuTrigger asChild>
							<Button variant="ghost" size="sm" aria-label={t('用户菜单')}>
								<UserIcon />
								<span className="max-w-24 truncate max-[600px]:hidden">{user.display_name || user.username}</span>
							</Button>
						</DropdownMenuTrigger>
						<DropdownMenuContent align="end">
							<DropdownMenuLabel>{user.username}</DropdownMenuLabel>
							<DropdownMenuSeparator />
							<DropdownMenuItem onSelect={() => navigate('/setting')}>{t('个人设置')}</DropdownMenuItem>
							<DropdownMenuItem onSelect={logout}>
								<LogOutIcon />
								{t('退出')}
							</DropdownMenuItem>
						</DropdownMenuContent>
					</DropdownMenu>
				) : (
					<>
						<Button asChild variant="ghost" size="sm">
							<Link to="/login">{t('登录')}</Link>
						</Button>
						{status.register_enabled && (
							<Button asChild size="sm" className="max-[600px]:hidden">
								<Link to="/register">{t('注册')}</Link>
							</Button>
						)}
					</>
				)}
			</div>
		</header>
	)
}
