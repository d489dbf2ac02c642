import type { ManageAction, UserView } from '@shared/user'
import { USER_STATUS } from '@shared/user-constants'
import { mayTakeUserAction } from '@shared/user-permissions'
import { RowActions } from '@ui/components/data-table/row-actions'
import { isDeactivated } from '@ui/features/users/user-labels'
import { useCurrentUser } from '@ui/lib/session'

export type ManageRequest = { user: UserView; action: ManageAction }

type UserActionsProps = { user: UserView; onManage: (request: ManageRequest) => void; onEdit: (user: UserView) => void }

/**
 * Edit and enable/disable on the row, promote, demote and deactivate in its menu: only what the
 * signed-in role may do to this user (the server's own rule), so the super admin's row offers only
 * an edit, and an admin's row none to another admin. A deactivated user has no actions.
 */
export function UserActions({ user, onManage, onEdit }: UserActionsProps) {
	const viewer = useCurrentUser()
	if (isDeactivated(user) || !viewer) return null
	const may = (action: Parameters<typeof mayTakeUserAction>[2]) => mayTakeUserAction(viewer, user, action)
	const manage = (action: ManageAction) => () => onManage({ user, action })
	const enabled = user.status === USER_STATUS.enabled
	return (
		<RowActions
			actions={[
				may('edit') && { label: '编辑', onSelect: () => onEdit(user) },
				enabled ? may('disable') && { label: '禁用', onSelect: manage('disable') } : may('enable') && { label: '启用', onSelect: manage('enable') },
				may('promote') && { label: '提升', onSelect: manage('promote') },
				may('demote') && { label: '降级', onSelect: manage('demote') },
				may('delete') && { label: '注销', onSelect: manage('delete'), destructive: true },
			]}
		/>
	)
}
