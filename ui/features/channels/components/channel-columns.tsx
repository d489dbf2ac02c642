import { splitList } from '@shared/channel-constants'
import type { ChannelListItem, ChannelTypeInfo, ChannelView } from '@shared/channel'
import type { DataColumn } from '@ui/components/data-table/data-table'
import { Badge } from '@ui/components/ui/badge'
import { findChannelType } from '@ui/features/channels/channel-types'
import { BalanceCell } from '@ui/features/channels/components/balance-cell'
import { ChannelActions } from '@ui/features/channels/components/channel-actions'
import { formatBalance, ResponseTime } from '@ui/features/channels/components/metric-cells'
import { PriorityCell, WeightCell } from '@ui/features/channels/components/priority-weight-cells'
import { ChannelStatus, TagStatus } from '@ui/features/channels/components/status-cell'
import { TagActions } from '@ui/features/channels/components/tag-actions'
import { isTagRow } from '@ui/features/channels/rows'
import { renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'

type Translate = (key: string, values?: Record<string, string | number>) => string

function Groups({ groups }: { groups: string }) {
	return (
		<div className="flex flex-wrap gap-1">
			{splitList(groups).map((group) => <Badge key={group} variant="outline">{group}</Badge>)}
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
						{row.tag}
						<Badge variant="grey">{t('{count} 个渠道', { count: row.channel_count })}</Badge>
					</span>
				)
				: (
					<span className="flex items-center gap-2">
						{row.name}
						{row.tag && <Badge variant="purple">{row.tag}</Badge>}
					</span>
				),
		},
		{ id: 'group', header: '分组', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => <Groups groups={row.group} /> },
		{ id: 'type', header: '类型', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => isTagRow(row) ? '-' : channelTypeName(row, types, t) },
		{ id: 'status', header: '状态', cell: ({ row: { original: row } }) => isTagRow(row) ? <TagStatus row={row} /> : <ChannelStatus channel={row} /> },
		{
			id: 'response_time',
			header: '响应时间',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: row } }) => <ResponseTime milliseconds={row.response_time} testTime={isTagRow(row) ? undefined : row.test_time} />,
		},
		{ id: 'used_quota', header: '已用额度', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => renderQuota(row.used_quota, status) },
		{ id: 'balance', header: '余额', meta: { hideOnMobile: true }, cell: ({ row: { original: row } }) => isTagRow(row) ? formatBalance(row.balance) : <BalanceCell channel={row} /> },
		{ id: 'priority', header: '优先级', cell: ({ row: { original: row } }) => <PriorityCell row={row} /> },
		{ id: 'weight', header: '权重', cell: ({ row: { original: row } }) => <WeightCell row={row} /> },
		{ id: 'actions', header: '操作', cell: ({ row: { original: row } }) => isTagRow(row) ? <TagActions row={row} /> : <ChannelActions channel={row} /> },
	]
}

function channelTypeName(channel: ChannelView, types: readonly ChannelTypeInfo[], t: Translate) {
	return findChannelType(types, channel.type)?.name ?? t('未知类型')
}
