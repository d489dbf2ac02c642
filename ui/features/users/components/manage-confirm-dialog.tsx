import { useState } from 'react'
import type { ManageAction } from '@shared/user'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import type { ManageRequest } from '@ui/features/users/components/user-actions'
import { useTranslation } from '@ui/i18n'

/** Promote, demote and deactivate ask first (docs/specification/accounts-and-settings.md#user-administration); disable and enable act at once. */
const confirmations: Partial<Record<ManageAction, { title: string; description: string; confirm: string; destructive?: boolean }>> = {
	promote: { title: '确定要提升此用户吗？', description: '用户 {name} 将成为管理员。', confirm: '提升' },
	demote: { title: '确定要降级此用户吗？', description: '用户 {name} 将成为普通用户。', confirm: '降级' },
	delete: { title: '确定要注销此用户吗？', description: '注销用户 {name} 相当于删除该用户，此操作不可逆。', confirm: '注销', destructive: true },
}

export const needsConfirmation = (action: ManageAction) => action in confirmations

type ManageConfirmDialogProps = { request: ManageRequest | null; onClose: () => void; onConfirm: (request: ManageRequest) => void }

export function ManageConfirmDialog({ request, onClose, onConfirm }: ManageConfirmDialogProps) {
	const { t } = useTranslation()
	// The last request stays on screen while the dialog animates closed.
	const [shown, setShown] = useState(request)
	if (request !== null && request !== shown) setShown(request)
	const texts = shown ? confirmations[shown.action] : undefined
	return (
		<ConfirmDialog
			open={request !== null && texts !== undefined}
			onOpenChange={(open) => !open && onClose()}
			title={texts ? t(texts.title) : ''}
			description={texts && shown ? t(texts.description, { name: shown.user.username }) : undefined}
			confirmText={texts ? t(texts.confirm) : undefined}
			destructive={texts?.destructive}
			onConfirm={() => request && onConfirm(request)}
		/>
	)
}
