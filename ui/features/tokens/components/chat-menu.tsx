import { ChevronDownIcon, MessageSquareIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { chatLinks, chatUrl } from '@ui/features/tokens/chat-links'
import { ActionLabel, compactBelowWide } from '@ui/features/tokens/components/action-label'

const chatMessages = {
	notConfigured: '请联系管理员配置聊天链接',
	misconfigured: '聊天链接配置错误，请联系管理员',
} as const

/** Opens one of the configured chat clients with this token's key (docs/specification/playground-and-chat.md#chat-links). */
export function ChatMenu({ tokenKey }: { tokenKey: string }) {
	const { t } = useTranslation()
	const status = useStatus()
	const links = chatLinks(status.chats)

	function open(template: string) {
		const url = chatUrl(template, tokenKey, status.server_address || window.location.origin)
		if (!url) {
			toast.error(t(chatMessages.misconfigured))
			return
		}
		window.open(url, '_blank', 'noopener,noreferrer')
	}

	if (links.length === 0) {
		return (
			<Button variant="outline" size="sm" className={compactBelowWide} title={t('聊天')} onClick={() => toast.info(t(chatMessages.notConfigured))}>
				<MessageSquareIcon />
				<ActionLabel text={t('聊天')} belowWide />
			</Button>
		)
	}
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button variant="outline" size="sm" className={compactBelowWide} title={t('聊天')}>
					<MessageSquareIcon />
					<ActionLabel text={t('聊天')} belowWide />
					<ChevronDownIcon className="max-[1500px]:hidden" />
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="end">
				{links.map((link, index) => (
					<DropdownMenuItem key={`${index}-${link.name}`} onSelect={() => open(link.template)}>
						{link.name}
					</DropdownMenuItem>
				))}
			</DropdownMenuContent>
		</DropdownMenu>
	)
}
