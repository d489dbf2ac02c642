import { PanelLeftCloseIcon, PanelLeftOpenIcon } from 'lucide-react'
import { NavLink, useNavigation } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { visibleMenu } from '@ui/components/layout/menu'
import { useTranslation } from '@ui/i18n'
import type { Status } from '@ui/lib/status'
import { cn } from '@ui/lib/utils'

type SideMenuProps = {
	status: Status
	role: number
	collapsed: boolean
	onToggle?: () => void
	onNavigate?: () => void
}

export function SideMenu({ status, role, collapsed, onToggle, onNavigate }: SideMenuProps) {
	const { t } = useTranslation()
	// While another page loads, its entry is the lit one (and the page being left is not): one at a time.
	const leaving = useNavigation().location !== undefined
	return (
		<nav aria-label={t('侧边菜单')} className="flex h-full flex-col gap-1 p-2">
			{visibleMenu(status, role).map((item) => (
				<NavLink
					key={item.to}
					to={item.to}
					onClick={onNavigate}
					title={collapsed ? t(item.label) : undefined}
					className={({ isActive, isPending }) =>
						cn(
							'flex h-9 items-center gap-3 rounded-md px-3 text-sm text-muted-foreground hover:bg-accent hover:text-foreground',
							(isPending || (isActive && !leaving)) && 'bg-accent font-medium text-foreground',
							collapsed && 'justify-center px-0',
						)
					}
				>
					<item.icon className="size-4 shrink-0" />
					{!collapsed && <span className="truncate">{t(item.label)}</span>}
				</NavLink>
			))}
			{onToggle && (
				<Button variant="ghost" size="icon" className="mt-auto self-end" aria-label={t(collapsed ? '展开侧边栏' : '收起侧边栏')} onClick={onToggle}>
					{collapsed ? <PanelLeftOpenIcon /> : <PanelLeftCloseIcon />}
				</Button>
			)}
		</nav>
	)
}
