import { type ReactNode, useEffect, useState } from 'react'
import { DemoSiteNotice } from '@ui/components/layout/demo-site-notice'
import { Footer } from '@ui/components/layout/footer'
import { Header } from '@ui/components/layout/header'
import { NavigationProgress } from '@ui/components/layout/navigation-progress'
import { SiteLinks } from '@ui/components/layout/site-links'
import { SideMenu } from '@ui/components/layout/side-menu'
import { Sheet, SheetContent, SheetTitle } from '@ui/components/ui/sheet'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'
import { cn } from '@ui/lib/utils'

/**
 * Header, optional side menu, scrollable content (24 px padding unless `bare`), footer (docs/specification/console.md#layout).
 * Under 600 px the header's links leave for a drawer opened from its menu button: the side menu and
 * the site's pages (home, pricing, about) in the console, the site's pages and sign-in elsewhere.
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
			<NavigationProgress />
			<Header onMenuClick={() => setMobileOpen(true)} />
			<div className="flex flex-1">
				{withMenu && (
					<aside className={cn('sticky top-14 h-[calc(100svh-3.5rem)] shrink-0 border-r max-[600px]:hidden', collapsed ? 'w-14' : 'w-52')}>
						<SideMenu status={status} role={role} collapsed={collapsed} onToggle={toggle} />
					</aside>
				)}
				<Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
					<SheetContent side="left" className="w-60 gap-0 overflow-y-auto p-0 pt-10">
						<SheetTitle className="sr-only">{t(withMenu ? '侧边菜单' : '菜单')}</SheetTitle>
						{withMenu && <SideMenu status={status} role={role} collapsed={false} onNavigate={() => setMobileOpen(false)} />}
						<SiteLinks inConsole={withMenu} onNavigate={() => setMobileOpen(false)} />
					</SheetContent>
				</Sheet>
				<div className="flex min-w-0 flex-1 flex-col">
					<DemoSiteNotice />
					<main className={cn('flex-1 overflow-x-clip', !bare && 'p-6 max-[600px]:p-3')}>{children}</main>
					<Footer />
				</div>
			</div>
		</div>
	)
}
