import { lazy, Suspense, useRef, useState } from 'react'
import { useLoaderData, useRevalidator } from 'react-router'
import { TOKEN_STATUS } from '@shared/token-constants'
import { deselect, type RowSelectionState } from '@ui/components/data-table/data-table'
import { useTableUrlState } from '@ui/components/data-table/url-state'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { copyText } from '@ui/components/ui/copy'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { deleteToken, getToken, readTokenFilters, setTokenStatus, type TokenView } from '@ui/features/tokens/api'
import { firstUsableToken, QuickStart } from '@ui/features/tokens/components/quick-start'
import type { DrawerTarget } from '@ui/features/tokens/components/token-drawer'
import { TokenTable } from '@ui/features/tokens/components/token-table'
import { TokenToolbar } from '@ui/features/tokens/components/token-toolbar'
import type { TokenPageData } from '@ui/features/tokens/token-route'

/** The form's code loads when it is first opened: most visits only read the list. */
const TokenDrawer = lazy(() => import('@ui/features/tokens/components/token-drawer').then((module) => ({ default: module.TokenDrawer })))

const copySelectedMessage = '请至少选择一个令牌'

/** The user's tokens, searched by name and key, with the editor drawer (docs/specification/tokens-and-money.md#api-tokens). */
export function TokenPage() {
	const { t } = useTranslation()
	const data = useLoaderData() as TokenPageData
	const table = useTableUrlState('tokens')
	const revalidator = useRevalidator()
	const filters = readTokenFilters(table.searchParameters)
	const [selected, setSelected] = useState<RowSelectionState>({})
	const [drawer, setDrawer] = useState<DrawerTarget | null>(null)
	// Once opened, the drawer stays mounted so that it can close with its animation.
	const drawerOpened = useRef(false)
	if (drawer) drawerOpened.current = true
	// The token stays set while the dialog closes, so its name does not vanish mid-animation.
	const [deleting, setDeleting] = useState<TokenView | null>(null)
	const [confirmingDelete, setConfirmingDelete] = useState(false)

	function copySelected() {
		const chosen = data.tokens.items.filter((token) => selected[token.id])
		if (chosen.length === 0) {
			toast.error(t(copySelectedMessage))
			return
		}
		copyText(chosen.map((token) => `${token.name}\t${token.key}`).join('\n'), t)
	}

	async function toggle(token: TokenView) {
		const enabling = token.status !== TOKEN_STATUS.enabled
		const status = enabling ? TOKEN_STATUS.enabled : TOKEN_STATUS.disabled
		if (await callApi(t, setTokenStatus(browserApi, token.id, status), enabling ? '令牌已启用' : '令牌已禁用')) revalidator.revalidate()
	}

	/** The drawer edits the token as it is now, not as the list showed it. */
	async function edit(token: TokenView) {
		const envelope = await callApi(t, getToken(browserApi, token.id))
		if (envelope) setDrawer({ kind: 'edit', token: envelope.data })
	}

	async function confirmDelete() {
		if (!deleting) return
		const token = deleting
		setConfirmingDelete(false)
		if (!(await callApi(t, deleteToken(browserApi, token.id), '令牌已删除'))) return
		setSelected((previous) => deselect(previous, token.id))
		revalidator.revalidate()
	}

	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-col gap-1">
				<h1 className="text-xl font-semibold">{t('令牌')}</h1>
				<p className="text-sm text-muted-foreground">{t('令牌用于调用 API，修改后可能需要几分钟才会生效')}</p>
			</div>
			<QuickStart {...data.start} token={firstUsableToken(data.tokens.items)} models={data.models} onCreateToken={() => setDrawer({ kind: 'create' })} />
			<TokenToolbar filters={filters} onSearch={(next) => table.setFilters(next)} onAdd={() => setDrawer({ kind: 'create' })} onCopySelected={copySelected} />
			{data.error && (
				<p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
					{t(data.error)}
				</p>
			)}
			<TokenTable
				tokens={data.tokens.items}
				filtered={Boolean(filters.keyword || filters.token)}
				onAdd={() => setDrawer({ kind: 'create' })}
				selected={selected}
				onSelectedChange={setSelected}
				pagination={{ page: table.page, pageSize: table.pageSize, total: data.tokens.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
				onToggle={toggle}
				onEdit={edit}
				onDelete={(token) => {
					setDeleting(token)
					setConfirmingDelete(true)
				}}
			/>
			{drawerOpened.current && (
				<Suspense fallback={null}>
					<TokenDrawer
						target={drawer}
						models={data.models}
						groups={data.groups}
						onClose={() => setDrawer(null)}
						onSaved={() => {
							setDrawer(null)
							revalidator.revalidate()
						}}
					/>
				</Suspense>
			)}
			<ConfirmDialog
				open={confirmingDelete}
				onOpenChange={setConfirmingDelete}
				title={t('确定删除令牌 {name} 吗？', { name: deleting?.name ?? '' })}
				description={t('删除后使用该令牌的请求将立即失败，此操作不可撤销')}
				confirmText={t('删除')}
				destructive
				onConfirm={confirmDelete}
			/>
		</div>
	)
}
