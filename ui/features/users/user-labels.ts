/** Role and status tags of the user table (docs/specification/accounts-and-settings.md#accounts). */
import { USER_STATUS } from '@shared/user-constants'
import type { UserView } from '@shared/user'
import type { BadgeVariant } from '@ui/components/ui/badge'

type Tag = { label: string; variant: BadgeVariant }

const statusTags: Record<number, Tag> = {
	[USER_STATUS.enabled]: { label: '已激活', variant: 'green' },
	[USER_STATUS.disabled]: { label: '已封禁', variant: 'red' },
	[USER_STATUS.blocked]: { label: '已禁用', variant: 'red' },
}

const deactivatedTag: Tag = { label: '已注销', variant: 'grey' }

export { roleTag } from '@ui/lib/role-labels'

export function statusTag(user: Pick<UserView, 'status' | 'deleted_at'>): Tag {
	if (isDeactivated(user)) return deactivatedTag
	return statusTags[user.status] ?? { label: '未知状态', variant: 'grey' }
}

export const isDeactivated = (user: Pick<UserView, 'deleted_at'>) => user.deleted_at !== null && user.deleted_at !== undefined
