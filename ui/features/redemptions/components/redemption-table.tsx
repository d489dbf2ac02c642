import { CopyIcon, PencilIcon, PlusIcon, PowerIcon, PowerOffIcon, Trash2Icon } from 'lucide-react'
import { REDEMPTION_STATUS } from '@shared/redemption-constants'
import { type DataColumn, DataTable, type PaginationProps, type RowSelectionState } from '@ui/components/data-table/data-table'
import { EmptyState } from '@ui/components/data-table/empty-state'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'
import { cn } from '@ui/lib/utils'
import type { RedemptionView } from '@ui/features/redemptions/api'
import { redemptionStatusTags, unknownStatusTag } from '@ui/features/redemptions/redemption-display'
import { ActionLabel, compactBelowWide } from '@ui/features/tokens/components/action-label'
import { TruncatedText } from '@ui/components/data-table/truncated-text'

type RedemptionRowHandlers = {
	onToggle: (code: RedemptionView) => void
	onEdit: (code: RedemptionView) => void
	onDelete: (code: RedemptionView) => void
}

type RedemptionTableProps = RedemptionRowHandlers & {
	codes: RedemptionView[]
	selected: RowSelectionState
	onSelectedChange: (selected: RowSelectionState) => void
	pagination: PaginationProps
	/** A search is on: an empty page means nothing matched. */
	filtered: boolean
	onAdd: () => void
}

function StatusBadge({ code }: { code: RedemptionView }) {
	const { t } = useTranslation()
	const tag = redemptionStatusTags[code.status] ?? unknownStatusTag
	return <Badge variant={tag.variant} data-status={code.status}>{t(tag.label)}</Badge>
}

/**
 * Copy, enable or disable, edit, delete (docs/specification/tokens-and-money.md#redemption-codes): a used code can be neither enabled nor
 * disabled, and only an unused one can be edited.
 */
function RowActions({ code, onToggle, onEdit, onDelete }: RedemptionRowHandlers & { code: RedemptionView }) {
	const { t } = useTranslation()
	const used = code.status === REDEMPTION_STATUS.used
	const unused = code.status === REDEMPTION_STATUS.unused
	return (
		<div className="flex flex-wrap items-center gap-1 min-[601px]:flex-nowrap max-[600px]:w-36">
			<Button variant="outline" size="sm" onClick={() => copyText(code.key, t)}>
				<CopyIcon />
				{t('复制')}
			</Button>
			{!used && (
				<Button variant="outline" size="sm" className={compactBelowWide} title={t(unused ? '禁用' : '启用')} onClick={() => onToggle(code)}>
					{unused ? <PowerOffIcon /> : <PowerIcon />}
					<ActionLabel text={t(unused ? '禁用' : '启用')} belowWide />
				</Button>
			)}
			{unused && (
				<Button variant="outline" size="sm" className={compactBelowWide} title={t('编辑')} onClick={() => onEdit(code)}>
					<PencilIcon />
					<ActionLabel text={t('编辑')} belowWide />
				</Button>
			)}
			<Button variant="outline" size="sm" className={cn(compactBelowWide, 'text-destructive hover:text-destructive')} title={t('删除')} onClick={() => onDelete(code)}>
				<Trash2Icon />
				<ActionLabel text={t('删除')} belowWide />
			</Button>
		</div>
	)
}

export function RedemptionTable({ codes, selected, onSelectedChange, pagination, filtered, onAdd, ...handlers }: RedemptionTableProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()
	const columns: DataColumn<RedemptionView>[] = [
		{ id: 'id', header: 'ID', cell: ({ row: { original: code } }) => code.id },
		{ id: 'name', header: '名称', cell: ({ row: { original: code } }) => <TruncatedText text={code.name} className="max-w-40 font-medium" /> },
		{ id: 'status', header: '状态', cell: ({ row: { original: code } }) => <StatusBadge code={code} /> },
		{ id: 'quota', header: '额度', meta: { hideOnMobile: true }, cell: ({ row: { original: code } }) => renderQuota(code.quota, status) },
		{ id: 'created', header: '创建时间', meta: { hideOnMobile: true }, cell: ({ row: { original: code } }) => formatTime(code.created_time) },
		{ id: 'redeemed', header: '兑换时间', meta: { hideOnMobile: true }, cell: ({ row: { original: code } }) => (code.redeemed_time ? formatTime(code.redeemed_time) : t('尚未兑换')) },
		{ id: 'user', header: '兑换人ID', meta: { hideOnMobile: true }, cell: ({ row: { original: code } }) => (code.used_user_id ? code.used_user_id : t('无')) },
		{ id: 'actions', header: '操作', meta: { stickyEnd: true }, cell: ({ row: { original: code } }) => <RowActions code={code} {...handlers} /> },
	]
	return (
		<DataTable
			columns={columns}
			rows={codes}
			rowKey={(code) => code.id}
			rowSelection={selected}
			onRowSelectionChange={onSelectedChange}
			phoneSummary={(code) => (
				<>
					<span className="basis-full font-medium break-all text-foreground">{code.name}</span>
					<StatusBadge code={code} />
					<span className="tabular-nums">{renderQuota(code.quota, status)}</span>
					<span className="tabular-nums">{formatTime(code.created_time)}</span>
				</>
			)}
			empty={<EmptyState filtered={filtered} nothing='还没有兑换码：生成一批，发给要充值的用户' noMatch='没有符合搜索条件的兑换码' action={<Button onClick={onAdd}><PlusIcon />{t('添加兑换码')}</Button>} />}
			pagination={pagination}
		/>
	)
}
