import { CopyIcon, PencilIcon, PowerIcon, PowerOffIcon, Trash2Icon } from 'lucide-react'
import { TOKEN_STATUS } from '@shared/token-constants'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'
import type { TokenView } from '@ui/features/tokens/api'
import { ActionLabel, compactOnMobile } from '@ui/features/tokens/components/action-label'
import { ChatMenu } from '@ui/features/tokens/components/chat-menu'

export type TokenRowHandlers = {
	onToggle: (token: TokenView) => void
	onEdit: (token: TokenView) => void
	onDelete: (token: TokenView) => void
}

/**
 * Copy, chat, enable or disable, edit, delete. Only an enabled token offers 禁用; the others offer
 * 启用, which the server refuses with its reason for an expired or exhausted token (seed 002 §4).
 */
export function TokenRowActions({ token, onToggle, onEdit, onDelete }: TokenRowHandlers & { token: TokenView }) {
	const { t } = useTranslation()
	const enabled = token.status === TOKEN_STATUS.enabled
	return (
		<div className="flex flex-wrap items-center gap-1 min-[601px]:flex-nowrap max-[600px]:w-36">
			{/* 复制 keeps its label on every screen: copying the key is what the page is for */}
			<Button variant="outline" size="sm" onClick={() => copyText(token.key, t)}>
				<CopyIcon />
				{t('复制')}
			</Button>
			<ChatMenu tokenKey={token.key} />
			<Button variant="outline" size="sm" className={compactOnMobile} onClick={() => onToggle(token)}>
				{enabled ? <PowerOffIcon /> : <PowerIcon />}
				<ActionLabel text={t(enabled ? '禁用' : '启用')} />
			</Button>
			<Button variant="outline" size="sm" className={compactOnMobile} onClick={() => onEdit(token)}>
				<PencilIcon />
				<ActionLabel text={t('编辑')} />
			</Button>
			<Button variant="outline" size="sm" className={cn(compactOnMobile, 'text-destructive hover:text-destructive')} onClick={() => onDelete(token)}>
				<Trash2Icon />
				<ActionLabel text={t('删除')} />
			</Button>
		</div>
	)
}
