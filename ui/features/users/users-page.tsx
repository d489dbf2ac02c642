import { PlusIcon } from 'lucide-react'
import { useState } from 'react'
import { useLoaderData, useRevalidator } from 'react-router'
import type { UserView } from '@shared/user'
import { DataTable } from '@ui/components/data-table/data-table'
import { EmptyState } from '@ui/components/data-table/empty-state'
import { useTableUrlState } from '@ui/components/data-table/url-state'
import { Button } from '@ui/components/ui/button'
import { manageUser } from '@ui/features/users/api'
import { AddUserDrawer } from '@ui/features/users/components/add-user-drawer'
import { EditUserDrawer } from '@ui/features/users/components/edit-user-drawer'
import { ManageConfirmDialog, needsConfirmation } from '@ui/features/users/components/manage-confirm-dialog'
import type { ManageRequest } from '@ui/features/users/components/user-actions'
import { UserPhoneSummary, useUserColumns } from '@ui/features/users/components/user-columns'
import { UserFilters } from '@ui/features/users/components/user-filters'
import type { UsersData } from '@ui/features/users/user-route'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

const tableName = 'users'

/** Changes answered by /api/user/manage, shown at once over the loaded rows until the next load. */
type RowChanges = Record<number, Partial<UserView>>

export function UsersPage() {
	const { t } = useTranslation()
	const data = useLoaderData() as UsersData
	const revalidator = useRevalidator()
	const table = useTableUrlState(tableName)
	const [changes, setChanges] = useState<{ source: UsersData; rows: RowChanges }>({ source: data, rows: {} })
	const [adding, setAdding] = useState(false)
	const [editingId, setEditingId] = useState<number | null>(null)
	const [confirming, setConfirming] = useState<ManageRequest | null>(null)
	const rowChanges = changes.source === data ? changes.rows : {}
	const rows = data.users.items.map((user) => ({ ...user, ...rowChanges[user.id] }))

	async function manage({ user, action }: ManageRequest) {
		const envelope = await callApi(t, manageUser(browserApi, user.id, action), '操作成功')
		if (!envelope) return
		const { status, role } = envelope.data
		const deactivated = action === 'delete' ? { deleted_at: Math.floor(Date.now() / 1000) } : {}
		setChanges((previous) => {
			const base = previous.source === data ? previous.rows : {}
			return { source: data, rows: { ...base, [user.id]: { ...base[user.id], status, role, ...deactivated } } }
		})
	}

	const columns = useUserColumns({
		onManage: (request) => (needsConfirmation(request.action) ? setConfirming(request) : manage(request)),
		onEdit: (user) => setEditingId(user.id),
	})

	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h1 className="text-xl font-semibold">{t('管理用户')}</h1>
				<Button onClick={() => setAdding(true)}>
					<PlusIcon />
					{t('添加用户')}
				</Button>
			</div>
			<UserFilters
				key={`${data.filters.keyword}\n${data.filters.group}`}
				filters={data.filters}
				groups={data.groups}
				onSearch={(filters) => table.setFilters(filters)}
			/>
			{data.failure && (
				<p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
					{t(data.failure)}
				</p>
			)}
			<DataTable
				columns={columns}
				rows={rows}
				rowKey={(user) => user.id}
				phoneSummary={(user) => <UserPhoneSummary user={user} />}
				empty={<EmptyState filtered={Boolean(data.filters.keyword || data.filters.group)} nothing='还没有其他用户：添加一个，或开放注册' noMatch='没有符合搜索条件的用户' action={<Button onClick={() => setAdding(true)}><PlusIcon />{t('添加用户')}</Button>} />}
				pagination={{ page: table.page, pageSize: table.pageSize, total: data.users.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
			/>
			<AddUserDrawer
				open={adding}
				onOpenChange={setAdding}
				onCreated={() => {
					setAdding(false)
					revalidator.revalidate()
				}}
			/>
			<EditUserDrawer
				userId={editingId}
				groups={data.groups}
				onClose={() => setEditingId(null)}
				onSaved={() => {
					setEditingId(null)
					revalidator.revalidate()
				}}
			/>
			<ManageConfirmDialog
				request={confirming}
				onClose={() => setConfirming(null)}
				onConfirm={(request) => {
					setConfirming(null)
					manage(request)
				}}
			/>
		</div>
	)
}
