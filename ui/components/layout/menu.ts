import { type LucideIcon, ClipboardListIcon, KeyRoundIcon, NetworkIcon, SettingsIcon, UsersIcon } from 'lucide-react'
import { ROLE } from '@shared/user'
import type { Status } from '@ui/lib/status'

export type MenuItem = {
	to: string
	/** zh source string */
	label: string
	icon: LucideIcon
	/** Least role that sees the entry. */
	role?: number
	/** Server flag that must be on (seed 002 §2: dashboard, drawing, async tasks). */
	visible?: (status: Status) => boolean
}

/**
 * The side menu of seed 002 §2, in its order. Entries whose pages arrive with later work (playground,
 * chat, dashboard, redemption, wallet, drawing, async tasks) are added here with their pages.
 */
export const sideMenu: MenuItem[] = [
	{ to: '/channel', label: '渠道', icon: NetworkIcon, role: ROLE.admin },
	{ to: '/token', label: '令牌', icon: KeyRoundIcon },
	{ to: '/user', label: '用户管理', icon: UsersIcon, role: ROLE.admin },
	{ to: '/log', label: '日志', icon: ClipboardListIcon },
	{ to: '/setting', label: '设置', icon: SettingsIcon },
]

export function visibleMenu(status: Status, role: number) {
	return sideMenu.filter((item) => role >= (item.role ?? ROLE.user) && (item.visible?.(status) ?? true))
}

/** The top bar's links (seed 002 §2); pricing joins when its page exists. */
export const topLinks = [
	{ to: '/', label: '首页' },
	{ to: '/token', label: '控制台' },
	{ to: '/about', label: '关于' },
]
