import { PlusIcon } from 'lucide-react'
import { TOKEN_NEVER_EXPIRES } from '@shared/token-constants'
import { type DataColumn, DataTable, type PaginationProps, type RowSelectionState } from '@ui/components/data-table/data-table'
import { EmptyState } from '@ui/components/data-table/empty-state'
import { TruncatedText } from '@ui/components/data-table/truncated-text'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'
import type { TokenView } from '@ui/features/tokens/api'
import { TokenKey } from '@ui/features/tokens/components/token-key'
import { type TokenRowHandlers, TokenRowActions } from '@ui/features/tokens/components/token-row-actions'
import { TokenStatusBadge } from '@ui/features/tokens/components/token-status-badge'
import { describeLength } from '@ui/features/plans/plan-display'

/** A time on one line (the table folds columns rather than wrap it). */
function Time({ text }: { text: string }) {
	return <span className="tabular-nums">{text}</span>
}

/** A token's concurrency limit, when it has one. */
function ConcurrencyBadge({ limit }: { limit: number }) {
	const { t } = useTranslation()
	if (limit <= 0) return null
	return <Badge variant="outline" data-testid="concurrency-limit" title={t('并发上限')}>{t('并发 ≤ {limit}', { limit })}</Badge>
}

type TokenTableProps = TokenRowHandlers & {
	tokens: TokenView[]
	selected: RowSelectionState
	onSelectedChange: (selected: RowSelectionState) => void
	pagination: PaginationProps
	/** A search is on: an empty page means nothing matched. */
	filtered: boolean
	onAdd: () => void
}

export function TokenTable({ tokens, selected, onSelectedChange, pagination, filtered, onAdd, ...handlers }: TokenTableProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()
	const lifetime = (token: TokenView) => (token.unlimited_quota ? <Badge variant="blue">{t('无限额度')}</Badge> : renderQuota(token.remain_quota, status))
	/** The lifetime quota, and under it each spend window's use of its current period. */
	const remaining = (token: TokenView) => (token.quota_windows.length === 0 ? lifetime(token) : (
		<span className="flex flex-col gap-0.5">
			<span>{lifetime(token)}</span>
			{token.quota_windows.map((window) => (
				<span key={window.seconds} className="text-xs text-muted-foreground" data-token-window={window.seconds}>
					{t('{window}：已用 {used} / {quota}', { window: t(describeLength(window.seconds).text, describeLength(window.seconds).values), used: renderQuota(window.used + window.held, status), quota: renderQuota(window.quota, status) })}
				</span>
			))}
		</span>
	))
	const columns: DataColumn<TokenView>[] = [
		{
			id: 'name',
			header: '名称',
			cell: ({ row: { original: token } }) => (
				<div className="flex min-w-40 flex-col gap-1 max-[600px]:min-w-0">
					<TruncatedText text={token.name} className="max-w-56 font-medium max-[600px]:whitespace-normal max-[600px]:break-all" />
					<TokenKey tokenKey={token.key} />
					{/* under 600 px the state and remaining quota columns are folded in here */}
					<div className="flex flex-wrap items-center gap-1 min-[601px]:hidden">
						<TokenStatusBadge token={token} />
						<ConcurrencyBadge limit={token.concurrency_limit} />
						<span className="text-xs text-muted-foreground">{remaining(token)}</span>
					</div>
				</div>
			),
		},
		{
			id: 'status',
			header: '状态',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: token } }) => <span className="flex items-center gap-1"><TokenStatusBadge token={token} /><ConcurrencyBadge limit={token.concurrency_limit} /></span>,
		},
		{ id: 'used', header: '已用额度', meta: { hideOnMobile: true, fold: true }, cell: ({ row: { original: token } }) => renderQuota(token.used_quota, status) },
		{ id: 'remaining', header: '剩余额度', meta: { hideOnMobile: true }, cell: ({ row: { original: token } }) => remaining(token) },
		{ id: 'created', header: '创建时间', meta: { hideOnMobile: true }, cell: ({ row: { original: token } }) => <Time text={formatTime(token.created_time)} /> },
		{
			id: 'expiry',
			header: '过期时间',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: token } }) => (token.expired_time === TOKEN_NEVER_EXPIRES ? t('永不过期') : <Time text={formatTime(token.expired_time)} />),
		},
		{
			id: 'group',
			header: '分组',
			meta: { hideOnMobile: true, fold: true },
			cell: ({ row: { original: token } }) => (token.group ? <Badge variant="outline">{token.group}</Badge> : <span className="text-muted-foreground">{t('用户分组')}</span>),
		},
		{ id: 'actions', header: '操作', meta: { stickyEnd: true }, cell: ({ row: { original: token } }) => <TokenRowActions token={token} {...handlers} /> },
	]
	return (
		<DataTable
			columns={columns}
			rows={tokens}
			rowKey={(token) => token.id}
			rowSelection={selected}
			onRowSelectionChange={onSelectedChange}
			empty={<EmptyState filtered={filtered} nothing='还没有令牌：创建一个令牌，用它调用 API' noMatch='没有符合搜索条件的令牌' action={<Button onClick={onAdd}><PlusIcon />{t('添加令牌')}</Button>} />}
			pagination={pagination}
		/>
	)
}
