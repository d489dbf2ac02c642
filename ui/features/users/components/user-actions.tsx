import type { ManageAction, UserView } from '@shared/user'
import { USER_STATUS } from '@shared/user-constants'
import { Button } from '@ui/components/ui/button'
import { isDeactivated } from '@ui/features/users/user-labels'
import { useTranslation } from '@ui/i18n'

export type ManageRequest = { user: UserView; action: ManageAction }

type UserActionsProps = { user: UserView; onManage: (request: ManageRequest) => void; onEdit: (user: UserView) => void }

/** A deactivated user has no actions; the server refuses what the caller's role may not do. */
export function UserActions({ user, onManage, onEdit }: UserActionsProps) {
	const { t } = useTranslation()
	if (isDeactivated(user)) return null
	const manage = (action: ManageAction) => () => onManage({ user, action })
	const enabled = user.status === USER_STATUS.enabled
	return (
		<div className="flex flex-wrap gap-1">
			<Button size="sm" variant="outline" onClick={manage('promote')}>{t('提升')}</Button>
			<Button size="sm" variant="outline" onClick={manage('demote')}>{t('降级')}</Button>
			{enabled ? (
				<Button size="sm" variant="outline" onClick={manage('disable')}>{t('禁用')}</Button>
			) : (
				<Button size="sm" variant="outline" disabled={user.status === USER_STATUS.blocked} onClick={manage('enable')}>{t('启用')}</Button>
			)}
			<Button size="sm" variant="outline" onClick={() => onEdit(user)}>{t('编辑')}</Button>
			<Button size="sm" variant="destructive" onClick={manage('delete')}>{t('注销')}</Button>
		</div>
	)
}
