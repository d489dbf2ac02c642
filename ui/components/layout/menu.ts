import { type LucideIcon, BarChart3Icon, ClipboardListIcon, FlaskConicalIcon, ImageIcon, KeyRoundIcon, ListChecksIcon, MessageSquareIcon, NetworkIcon, PackageIcon, SettingsIcon, TicketIcon, UsersIcon, WalletIcon } from 'lucide-react'
import { ROLE } from '@shared/user-constants'
import type { Status } from '@ui/lib/status'

type MenuItem = {
	to: string
	/** zh source string */
	label: string
	icon: LucideIcon
	/** Least role that sees the entry. */
	role?: number
	/** Server flag that must be on (docs/specification/console.md#layout: dashboard, drawing, async tasks). */
	visible?: (status: Status) => boolean
}

/**
 * The side menu (docs/specification/console.md#layout), in its order. Chat shows only when the server configures a chat
 * link; drawing and async tasks only while their relays are on.
 */
const sideMenu: MenuItem[] = [
	{ to: '/playground', label: '操练场', icon: FlaskConicalIcon },
	{ to: '/channel', label: '渠道', icon: NetworkIcon, role: ROLE.admin },
	{ to: '/chat/0', label: '聊天', icon: MessageSquareIcon, visible: (status) => status.chats.length > 0 || Boolean(status.chat_link) },
	{ to: '/token', label: '令牌', icon: KeyRoundIcon },
	{ to: '/detail', label: '数据看板', icon: BarChart3Icon, visible: (status) => status.enable_data_export },
	{ to: '/redemption', label: '兑换码', icon: TicketIcon, role: ROLE.admin },
	{ to: '/topup', label: '钱包', icon: WalletIcon },
	{ to: '/plan', label: '套餐', icon: PackageIcon },
	{ to: '/user', label: '用户管理', icon: UsersIcon, role: ROLE.admin },
	{ to: '/log', label: '日志', icon: ClipboardListIcon },
	{ to: '/midjourney', label: '绘图', icon: ImageIcon, visible: (status) => status.enable_drawing },
	{ to: '/task', label: '异步任务', icon: ListChecksIcon, visible: (status) => status.enable_task },
	{ to: '/setting', label: '设置', icon: SettingsIcon },
]

export function visibleMenu(status: Status, role: number) {
	return sideMenu.filter((item) => role >= (item.role ?? ROLE.user) && (item.visible?.(status) ?? true))
}

/** The top bar's links (docs/specification/console.md#layout). */
export const topLinks = [
	{ to: '/', label: '首页' },
	{ to: '/token', label: '控制台' },
	{ to: '/pricing', label: '定价' },
	{ to: '/about', label: '关于' },
]
