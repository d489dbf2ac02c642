import { type ReactNode, useEffect, useState } from 'react'
import { Footer } from '@ui/components/layout/footer'
import { Header } from '@ui/components/layout/header'
import { SideMenu } from '@ui/components/layout/side-menu'
import { Sheet, SheetContent, SheetTitle } from '@ui/components/ui/sheet'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'
import { cn } from '@ui/lib/utils'

/**
 * Seed 002 §2: header, optional side menu, scrollable content (24 px padding unless `bare`), footer.
 * Under 600 px the side menu is a drawer opened from the header.
 */
export function AppLayout({ role, children, bare = false }: { role?: number; children: ReactNode; bare?: boolean }) {
	const { t } = useTranslation()
	const status = useStatus()
	// The server renders the default; the viewer's own choice is applied once hydrated.
	const [collapsed, setCollapsed] = useState(status.default_collapse_sidebar)
	useEffect(() => {
		const stored = readStorage(storageKeys.sidebarCollapsed)
		if (stored !== null) setCollapsed(stored === 'true')
	}, [])
	const [mobileOpen, setMobileOpen] = useState(false)
	const withMenu = role !== undefined

	function toggle() {
		setCollapsed((value) => {
			writeStorage(storageKeys.sidebarCollapsed, String(!value))
			return !value
		})
	}

	return (
		<div className="flex min-h-svh flex-col">
			<Header onMenuClick={withMenu ? () => setMobileOpen(true) : undefined} />
			<div className="flex flex-1">
				{withMenu && (
					<aside className={cn('sticky top-14 h-[calc(100svh-3.5rem)] shrink-0 border-r max-[600px]:hidden', collapsed ? 'w-14' : 'w-52')}>
						<SideMenu status={status} role={role} collapsed={collapsed} onToggle={toggle} />
					</aside>
				)}
				{withMenu && (
					<Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
						<SheetContent side="left" className="w-60 p-0 pt-10">
							<SheetTitle className="sr-only">{t('侧边菜单')}</SheetTitle>
							<SideMenu status={status} role={role} collapsed={false} onNavigate={() => setMobileOpen(false)} />
						</SheetContent>
					</Sheet>
				)}
				<div className="flex min-w-0 flex-1 flex-col">
					<main className={cn('flex-1 overflow-x-clip', !bare && 'p-6 max-[600px]:p-3')}>{children}</main>
					<Footer />
				</div>
			</div>
		</div>
	)
}
