import { splitList } from '@shared/channel-constants'
import type { ChannelListItem, ChannelTypeInfo, ChannelView } from '@shared/channel'
import type { DataColumn } from '@ui/components/data-table/data-table'
import { TruncatedText } from '@ui/components/data-table/truncated-text'
import { Badge } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { findChannelType } from '@ui/features/channels/channel-types'
import { BalanceCell } from '@ui/features/channels/components/balance-cell'
import { ChannelActions } from '@ui/features/channels/components/channel-actions'
import { formatBalance, ResponseTime } from '@ui/features/channels/components/metric-cells'
import { PriorityCell, WeightCell } from '@ui/features/channels/components/priority-weight-cells'
import { ChannelStatus, KeyCounts, TagStatus } from '@ui/features/channels/components/status-cell'
import { TagActions } from '@ui/features/channels/components/tag-actions'
import { isTagRow } from '@ui/features/channels/rows'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'

type Translate = (key: string, values?: Record<string, string | number>) => string

/** Groups shown on a row before the rest fold into a "+n" badge (all of them in its tooltip). */
const SHOWN_GROUPS = 2

function Groups({ groups }: { groups: string }) {
	const all = splitList(groups)
	const rest = all.length - SHOWN_GROUPS
	return (
		<div className="flex flex-wrap gap-1">
			{all.slice(0, SHOWN_GROUPS).map((group) => <Badge key={group} variant="outline" className="max-w-24" title={group}><span className="truncate">{group}</span></Badge>)}
			{rest > 0 && (
				<Tooltip content={all.join(', ')}>
					<Badge variant="grey" tabIndex={0} className="cursor-help">+{rest}</Badge>
				</Tooltip>
			)}
		</div>
	)
}

/** The list's columns; tag rows (tag mode) show their tag, totals and shared values instead. `types` names the channel types. */
export function channelColumns(t: Translate, status: Status, types: readonly ChannelTypeInfo[]): DataColumn<ChannelListItem>[] {
	return [
		{ id: 'id', header: 'ID', cell: ({ row: { original: row } }) => isTagRow(row) ? <Badge variant="purple">{t('标签')}</Badge> : row.id },
		{
			id: 'name',
			header: '名称',
			cell: ({ row: { original: row } }) => isTagRow(row)
				? (
					<span className="flex items-center gap-2 font-medium">
						<TruncatedText text={row.tag} className="max-w-40" />
						<Badge variant="grey">{t('{count} 个渠道', { count: row.channel_count })}</Badge>
					</span>
				)
				: (
					<span className="flex items-center gap-2">
						<TruncatedText text={row.name} className="max-w-44" />
						{row.tag && <Badge variant="purple" className="max-w-28" title={row.tag}><span className="truncate">{row.tag}</span></Badge>}
					</span>
				),
		},
		{ id: 'group', header: '分组', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => <Groups groups={row.group} /> },
		{ id: 'type', header: '类型', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => isTagRow(row) ? '-' : channelTypeName(row, types, t) },
		{
			id: 'status',
			header: '状态',
			cell: ({ row: { original: row } }) => isTagRow(row) ? <TagStatus row={row} /> : <span className="flex items-center gap-1"><ChannelStatus channel={row} /><KeyCounts counts={row.key_counts} /></span>,
		},
		{
			id: 'response_time',
			header: '响应时间',
			meta: { hideOnMobile: true, fold: true },
			cell: ({ row: { original: row } }) => <ResponseTime milliseconds={row.response_time} testTime={isTagRow(row) ? undefined : row.test_time} />,
		},
		{ id: 'used_quota', header: '已用额度', meta: { hideOnMobile: true, fold: true }, cell: ({ row: { original: row } }) => renderQuota(row.used_quota, status) },
		{ id: 'balance', header: '余额', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => isTagRow(row) ? formatBalance(row.balance) : <BalanceCell channel={row} /> },
		{ id: 'priority', header: '优先级', cell: ({ row: { original: row } }) => <PriorityCell row={row} /> },
		{ id: 'weight', header: '权重', cell: ({ row: { original: row } }) => <WeightCell row={row} /> },
		{ id: 'actions', header: '操作', meta: { stickyEnd: true }, cell: ({ row: { original: row } }) => isTagRow(row) ? <TagActions row={row} /> : <ChannelActions channel={row} /> },
	]
}

/** A channel's card on a phone: its state, type, groups, priority and weight. */
export function ChannelPhoneSummary({ row, types }: { row: ChannelListItem; types: readonly ChannelTypeInfo[] }) {
	const { t } = useTranslation()
	if (isTagRow(row)) return <><span className="basis-full font-medium text-foreground">{row.tag}</span><TagStatus row={row} /></>
	return (
		<>
			<span className="basis-full font-medium break-all text-foreground">{row.name}</span>
			<ChannelStatus channel={row} />
			<KeyCounts counts={row.key_counts} />
			<span>{channelTypeName(row, types, t)}</span>
			<Groups groups={row.group} />
			<span>{t('优先级')} {row.priority ?? 0} · {t('权重')} {row.weight ?? 0}</span>
		</>
	)
}

function channelTypeName(channel: ChannelView, types: readonly ChannelTypeInfo[], t: Translate) {
	return findChannelType(types, channel.type)?.name ?? t('未知类型')
}
