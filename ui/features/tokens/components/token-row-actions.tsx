import { PencilIcon, PowerIcon, PowerOffIcon, Trash2Icon } from 'lucide-react'
import { TOKEN_STATUS } from '@shared/token-constants'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'
import type { TokenView } from '@ui/features/tokens/api'
import { ActionLabel, compactBelowWide } from '@ui/features/tokens/components/action-label'
import { ChatMenu } from '@ui/features/tokens/components/chat-menu'
import { CopyMenu } from '@ui/features/tokens/components/copy-menu'

export type TokenRowHandlers = {
	onToggle: (token: TokenView) => void
	onEdit: (token: TokenView) => void
	onDelete: (token: TokenView) => void
}

/**
 * Copy (and its menu), chat, enable or disable, edit, delete. Only an enabled token offers 禁用; the
 * others offer 启用, which the server refuses with its reason for an expired or exhausted token
 * (docs/specification/tokens-and-money.md#api-tokens). Under 1 500 px the buttons after copy are icons, their names in a title.
 */
export function TokenRowActions({ token, onToggle, onEdit, onDelete }: TokenRowHandlers & { token: TokenView }) {
	const { t } = useTranslation()
	const enabled = token.status === TOKEN_STATUS.enabled
	return (
		<div className="flex flex-wrap items-center gap-1 min-[601px]:flex-nowrap max-[600px]:w-36">
			<CopyMenu tokenKey={token.key} />
			<ChatMenu tokenKey={token.key} />
			<Button variant="outline" size="sm" className={compactBelowWide} title={t(enabled ? '禁用' : '启用')} onClick={() => onToggle(token)}>
				{enabled ? <PowerOffIcon /> : <PowerIcon />}
				<ActionLabel text={t(enabled ? '禁用' : '启用')} belowWide />
			</Button>
			<Button variant="outline" size="sm" className={compactBelowWide} title={t('编辑')} onClick={() => onEdit(token)}>
				<PencilIcon />
				<ActionLabel text={t('编辑')} belowWide />
			</Button>
			<Button variant="outline" size="sm" className={cn(compactBelowWide, 'text-destructive hover:text-destructive')} title={t('删除')} onClick={() => onDelete(token)}>
				<Trash2Icon />
				<ActionLabel text={t('删除')} belowWide />
			</Button>
		</div>
	)
}
