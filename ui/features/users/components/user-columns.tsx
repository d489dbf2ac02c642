import type { UserView } from '@shared/user'
import type { DataColumn } from '@ui/components/data-table/data-table'
import { TruncatedText } from '@ui/components/data-table/truncated-text'
import { Badge } from '@ui/components/ui/badge'
import { type ManageRequest, UserActions } from '@ui/features/users/components/user-actions'
import { roleTag, statusTag } from '@ui/features/users/user-labels'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

type ColumnHandlers = { onManage: (request: ManageRequest) => void; onEdit: (user: UserView) => void }

export function useUserColumns({ onManage, onEdit }: ColumnHandlers): DataColumn<UserView>[] {
	const { t } = useTranslation()
	const status = useStatus()
	return [
		{ id: 'id', header: 'ID', cell: ({ row: { original: user } }) => user.id },
		{
			id: 'username',
			header: '用户名',
			cell: ({ row: { original: user } }) => (
				<div className="flex items-baseline gap-2">
					<span className="font-medium">{user.username}</span>
					{user.display_name && user.display_name !== user.username && <TruncatedText text={user.display_name} className="max-w-32 text-xs text-muted-foreground" />}
				</div>
			),
		},
		{ id: 'group', header: '分组', cell: ({ row: { original: user } }) => <Badge variant="outline" className="max-w-28" title={user.group}><span className="truncate">{user.group}</span></Badge> },
		{
			id: 'stats',
			header: '统计信息',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: user } }) => (
				<div className="flex flex-wrap gap-1">
					<Badge variant="green">{t('剩余额度 {quota}', { quota: renderQuota(user.quota, status) })}</Badge>
					<Badge variant="grey">{t('已用额度 {quota}', { quota: renderQuota(user.used_quota, status) })}</Badge>
					<Badge variant="blue">{t('调用次数 {count}', { count: user.request_count })}</Badge>
				</div>
			),
		},
		{
			id: 'invitation',
			header: '邀请信息',
			meta: { hideOnMobile: true, fold: true },
			cell: ({ row: { original: user } }) => (
				<div className="flex flex-wrap gap-1">
					<Badge variant="grey">{t('邀请人数 {count}', { count: user.aff_count })}</Badge>
					<Badge variant="grey">{t('邀请总收益 {quota}', { quota: renderQuota(user.aff_history_quota, status) })}</Badge>
					{user.inviter_id ? <Badge variant="grey">{t('邀请人 ID {id}', { id: user.inviter_id })}</Badge> : <Badge variant="grey">{t('无邀请人')}</Badge>}
				</div>
			),
		},
		{
			id: 'role',
			header: '角色',
			cell: ({ row: { original: user } }) => {
				const tag = roleTag(user.role)
				return <Badge variant={tag.variant}>{t(tag.label)}</Badge>
			},
		},
		{
			id: 'status',
			header: '状态',
			cell: ({ row: { original: user } }) => {
				const tag = statusTag(user)
				return <Badge variant={tag.variant}>{t(tag.label)}</Badge>
			},
		},
		{ id: 'actions', header: '操作', meta: { stickyEnd: true }, cell: ({ row: { original: user } }) => <UserActions user={user} onManage={onManage} onEdit={onEdit} /> },
	]
}

/** A user's card on a phone: group, role, state and balance. */
export function UserPhoneSummary({ user }: { user: UserView }) {
	const { t } = useTranslation()
	const status = useStatus()
	const role = roleTag(user.role)
	const state = statusTag(user)
	return (
		<>
			<span className="basis-full font-medium break-all text-foreground">{user.display_name || user.username}</span>
			<Badge variant="outline">{user.group}</Badge>
			<Badge variant={role.variant}>{t(role.label)}</Badge>
			<Badge variant={state.variant}>{t(state.label)}</Badge>
			<span className="tabular-nums">{t('剩余额度 {quota}', { quota: renderQuota(user.quota, status) })}</span>
		</>
	)
}
