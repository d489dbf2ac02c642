import type { Column } from '@ui/components/data-table/data-table'
import { Badge } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { variantForFirstToken, isUsage, otherNumber, pricingSummary, type LogRow, typeTag, variantForUseTime } from '@ui/features/logs/log-display'
import { useTranslation } from '@ui/i18n'
import { millisecondsAsSeconds, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'

/** The log table's columns; the channel and user columns exist for admins only (seed 002 §6). */
export function useLogColumns(admin: boolean): Column<LogRow>[] {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()

	const adminColumns: Column<LogRow>[] = [
		{
			key: 'channel',
			header: '渠道',
			hideOnMobile: true,
			cell: (entry) => entry.channel ? (
				<Tooltip content={entry.channel_name || '-'}>
					<Badge variant="outline" className="tabular-nums">{entry.channel}{entry.channel_name ? ` · ${entry.channel_name}` : ''}</Badge>
				</Tooltip>
			) : null,
		},
		{ key: 'username', header: '用户', hideOnMobile: true, cell: (entry) => entry.username },
	]

	return [
		{ key: 'created_at', header: '时间', cell: (entry) => <span className="tabular-nums">{formatTime(entry.created_at)}</span> },
		...(admin ? adminColumns : []),
		{ key: 'token_name', header: '令牌', cell: (entry) => entry.token_name ? <Badge variant="grey">{entry.token_name}</Badge> : null },
		{ key: 'group', header: '分组', hideOnMobile: true, cell: (entry) => entry.group ? <Badge variant="outline">{entry.group}</Badge> : null },
		{
			key: 'type',
			header: '类型',
			cell: (entry) => {
				const tag = typeTag(entry.type)
				return <Badge variant={tag.variant}>{t(tag.label)}</Badge>
			},
		},
		{ key: 'model_name', header: '模型', cell: (entry) => entry.model_name ? <Badge variant="blue">{entry.model_name}</Badge> : null },
		{ key: 'use_time', header: '用时/首字', cell: (entry) => isUsage(entry.type) ? <Timing entry={entry} /> : null },
		{ key: 'prompt_tokens', header: '提示', hideOnMobile: true, className: 'text-right tabular-nums', cell: (entry) => isUsage(entry.type) ? entry.prompt_tokens : null },
		{ key: 'completion_tokens', header: '补全', hideOnMobile: true, className: 'text-right tabular-nums', cell: (entry) => isUsage(entry.type) ? entry.completion_tokens : null },
		{ key: 'quota', header: '花费', className: 'text-right tabular-nums', cell: (entry) => (
			// data-quota carries the exact charge: the text is rounded for display.
			<span data-testid="log-cost" data-quota={entry.quota}>
				{isUsage(entry.type) ? renderQuota(entry.quota, status, CALL_COST_DIGITS) : renderQuota(entry.quota, status)}
			</span>
		) },
		{
			key: 'content',
			header: '详情',
			hideOnMobile: true,
			className: 'max-w-80 truncate',
			cell: (entry) => {
				const summary = entry.content ? undefined : pricingSummary(entry)
				const text = entry.content || (summary ? t(summary.template, summary.values) : '')
				return <span title={text}>{text}</span>
			},
		},
	]
}

/** Costs of single calls are small: six digits keep them readable in dollars. */
const CALL_COST_DIGITS = 6

function Timing({ entry }: { entry: LogRow }) {
	const { t } = useTranslation()
	const firstToken = otherNumber(entry.other, 'frt')
	return (
		<div className="flex items-center gap-1">
			<Badge variant={variantForUseTime(entry.use_time)} data-testid="use-time">{t('{seconds} 秒', { seconds: entry.use_time })}</Badge>
			{firstToken !== undefined && (
				<Tooltip content={t('首字时间')}>
					<Badge variant={variantForFirstToken(firstToken)} data-testid="first-token">{t('{seconds} 秒', { seconds: millisecondsAsSeconds(firstToken, 1) })}</Badge>
				</Tooltip>
			)}
			<Badge variant="grey">{t(entry.is_stream ? '流' : '非流')}</Badge>
		</div>
	)
}
