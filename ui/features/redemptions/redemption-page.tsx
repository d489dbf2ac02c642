import { useState } from 'react'
import { useLoaderData, useRevalidator } from 'react-router'
import { REDEMPTION_STATUS } from '@shared/redemption-constants'
import { deselect, type RowSelectionState } from '@ui/components/data-table/data-table'
import { useTableUrlState } from '@ui/components/data-table/url-state'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { copyText } from '@ui/components/ui/copy'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { deleteRedemption, getRedemption, type RedemptionView, setRedemptionStatus } from '@ui/features/redemptions/api'
import { CreatedCodesDialog } from '@ui/features/redemptions/components/created-codes-dialog'
import { type CreatedCodes, type DrawerTarget, RedemptionDrawer } from '@ui/features/redemptions/components/redemption-drawer'
import { RedemptionTable } from '@ui/features/redemptions/components/redemption-table'
import { RedemptionToolbar } from '@ui/features/redemptions/components/redemption-toolbar'
import { keyLines } from '@ui/features/redemptions/redemption-display'
import type { RedemptionPageData } from '@ui/features/redemptions/redemption-route'

/** Redemption codes (admins), searched by id or name, with the editor drawer (docs/specification/tokens-and-money.md#redemption-codes). */
export function RedemptionPage() {
	const { t } = useTranslation()
	const data = useLoaderData() as RedemptionPageData
	const table = useTableUrlState('redemptions')
	const revalidator = useRevalidator()
	const [selected, setSelected] = useState<RowSelectionState>({})
	const [drawer, setDrawer] = useState<DrawerTarget | null>(null)
	const [created, setCreated] = useState<CreatedCodes | null>(null)
	// The code stays set while the dialog closes, so its name does not vanish mid-animation.
	const [deleting, setDeleting] = useState<RedemptionView | null>(null)
	const [confirmingDelete, setConfirmingDelete] = useState(false)

	function copySelected() {
		const chosen = data.codes.items.filter((code) => selected[code.id])
		if (chosen.length === 0) {
			toast.error(t('请至少选择一个兑换码'))
			return
		}
		copyText(keyLines(chosen.map((code) => code.key)), t)
	}

	async function toggle(code: RedemptionView) {
		const enabling = code.status !== REDEMPTION_STATUS.unused
		const status = enabling ? REDEMPTION_STATUS.unused : REDEMPTION_STATUS.disabled
		if (await callApi(t, setRedemptionStatus(browserApi, code.id, status), enabling ? '兑换码已启用' : '兑换码已禁用')) revalidator.revalidate()
	}

	/** The drawer edits the code as it is now, not as the list showed it. */
	async function edit(code: RedemptionView) {
		const envelope = await callApi(t, getRedemption(browserApi, code.id))
		if (envelope) setDrawer({ kind: 'edit', code: envelope.data })
	}

	async function confirmDelete() {
		if (!deleting) return
		const code = deleting
		setConfirmingDelete(false)
		if (!(await callApi(t, deleteRedemption(browserApi, code.id), '兑换码已删除'))) return
		setSelected((previous) => deselect(previous, code.id))
		revalidator.revalidate()
	}

	return (
		<div className="flex flex-col gap-4">
			<h1 className="text-xl font-semibold">{t('兑换码')}</h1>
			<RedemptionToolbar keyword={data.keyword} onSearch={(keyword) => table.setFilters({ keyword })} onAdd={() => setDrawer({ kind: 'create' })} onCopySelected={copySelected} />
			{data.failure && (
				<p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
					{t(data.failure)}
				</p>
			)}
			<RedemptionTable
				codes={data.codes.items}
				filtered={Boolean(data.keyword)}
				onAdd={() => setDrawer({ kind: 'create' })}
				selected={selected}
				onSelectedChange={setSelected}
				pagination={{ page: table.page, pageSize: table.pageSize, total: data.codes.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
				onToggle={toggle}
				onEdit={edit}
				onDelete={(code) => {
					setDeleting(code)
					setConfirmingDelete(true)
				}}
			/>
			<RedemptionDrawer
				target={drawer}
				onClose={() => setDrawer(null)}
				onSaved={(codes) => {
					setDrawer(null)
					if (codes) setCreated(codes)
					revalidator.revalidate()
				}}
			/>
			<CreatedCodesDialog created={created} onClose={() => setCreated(null)} />
			<ConfirmDialog
				open={confirmingDelete}
				onOpenChange={setConfirmingDelete}
				title={t('确定删除兑换码 {name} 吗？', { name: deleting?.name ?? '' })}
				description={t('删除后该兑换码将无法兑换，此操作不可撤销')}
				confirmText={t('删除')}
				destructive
				onConfirm={confirmDelete}
			/>
		</div>
	)
}
