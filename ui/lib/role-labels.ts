/** How a role is named and coloured wherever the console shows one (the user table, the personal tab). */
import { ROLE } from '@shared/user-constants'
import type { BadgeVariant } from '@ui/components/ui/badge'

type Tag = { label: string; variant: BadgeVariant }

const roleTags: Record<number, Tag> = {
	[ROLE.user]: { label: '普通用户', variant: 'blue' },
	[ROLE.admin]: { label: '管理员', variant: 'yellow' },
	[ROLE.root]: { label: '超级管理员', variant: 'orange' },
}

export function roleTag(role: number): Tag {
	return roleTags[role] ?? { label: '未知身份', variant: 'grey' }
}
