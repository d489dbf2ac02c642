import type { DataColumn } from '@ui/components/data-table/data-table'
import { TruncatedText } from '@ui/components/data-table/truncated-text'
import { Badge } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { CALL_COST_DIGITS, variantForFirstToken, isUsage, otherNumber, pricingSummary, type LogRow, typeTag, variantForUseTime } from '@ui/features/logs/log-display'
import { adminActionText } from '@ui/features/logs/admin-action'
import { useTranslation } from '@ui/i18n'
import { millisecondsAsSeconds, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'

/** The log table's columns; the channel and user columns exist for admins only (docs/specification/logs-and-dashboard.md#the-log-page). */
export function useLogColumns(admin: boolean): DataColumn<LogRow>[] {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()

	const adminColumns: DataColumn<LogRow>[] = [
		{
			id: 'channel',
			header: '渠道',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: entry } }) => entry.channel ? (
				<Tooltip content={entry.channel_name || '-'}>
					<Badge variant="outline" className="max-w-32 tabular-nums"><span className="truncate">{entry.channel}{entry.channel_name ? ` · ${entry.channel_name}` : ''}</span></Badge>
				</Tooltip>
			) : null,
		},
		{ id: 'username', header: '用户', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <TruncatedText text={entry.username} className="max-w-28" /> },
	]

	return [
		{ id: 'created_at', header: '时间', cell: ({ row: { original: entry } }) => <span className="tabular-nums">{formatTime(entry.created_at)}</span> },
		...(admin ? adminColumns : []),
		{ id: 'token_name', header: '令牌', cell: ({ row: { original: entry } }) => entry.token_name ? <Badge variant="grey" className="max-w-28" title={entry.token_name}><span className="truncate">{entry.token_name}</span></Badge> : null },
		{ id: 'group', header: '分组', meta: { hideOnMobile: true, fold: true }, cell: ({ row: { original: entry } }) => entry.group ? <Badge variant="outline">{entry.group}</Badge> : null },
		{
			id: 'type',
			header: '类型',
			cell: ({ row: { original: entry } }) => {
				const tag = typeTag(entry.type)
				return <Badge variant={tag.variant}>{t(tag.label)}</Badge>
			},
		},
		{ id: 'model_name', header: '模型', cell: ({ row: { original: entry } }) => entry.model_name ? <Badge variant="blue" className="max-w-40" title={entry.model_name}><span className="truncate">{entry.model_name}</span></Badge> : null },
		{ id: 'use_time', header: '用时/首字', cell: ({ row: { original: entry } }) => isUsage(entry.type) ? <Timing entry={entry} /> : null },
		{ id: 'prompt_tokens', header: '提示', meta: { hideOnMobile: true, fold: true, className: 'text-right tabular-nums' }, cell: ({ row: { original: entry } }) => isUsage(entry.type) ? entry.prompt_tokens : null },
		{ id: 'completion_tokens', header: '补全', meta: { hideOnMobile: true, fold: true, className: 'text-right tabular-nums' }, cell: ({ row: { original: entry } }) => isUsage(entry.type) ? entry.completion_tokens : null },
		{ id: 'quota', header: '花费', meta: { className: 'text-right tabular-nums' }, cell: ({ row: { original: entry } }) => (
			// data-quota carries the exact charge: the text is rounded for display.
			<span data-testid="log-cost" data-quota={entry.quota}>
				{isUsage(entry.type) ? renderQuota(entry.quota, status, CALL_COST_DIGITS) : renderQuota(entry.quota, status)}
			</span>
		) },
		{
			id: 'content',
			header: '详情',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: entry } }) => {
				// An admin action reads in the console's language; other lines show their content, or the pricing.
				const action = adminActionText(entry.other, formatTime)
				const summary = action ?? (entry.content ? undefined : pricingSummary(entry))
				const text = action || !entry.content ? (summary ? t(summary.template, summary.values) : '') : entry.content
				return <TruncatedText text={text} className="max-w-48 min-[1500px]:max-w-80" />
			},
		},
	]
}

/** A log line's card on a phone: what happened, with which model, how long it took and what it cost. */
export function LogPhoneSummary({ entry }: { entry: LogRow }) {
	const { t } = useTranslation()
	const status = useStatus()
	const tag = typeTag(entry.type)
	return (
		<>
			<Badge variant={tag.variant}>{t(tag.label)}</Badge>
			{entry.model_name && <Badge variant="blue" className="max-w-40"><span className="truncate">{entry.model_name}</span></Badge>}
			{isUsage(entry.type) && <span>{t('{seconds} 秒', { seconds: entry.use_time })}</span>}
			{isUsage(entry.type) && <span className="tabular-nums">{entry.prompt_tokens} / {entry.completion_tokens}</span>}
			<span className="font-medium text-foreground tabular-nums">{isUsage(entry.type) ? renderQuota(entry.quota, status, CALL_COST_DIGITS) : renderQuota(entry.quota, status)}</span>
		</>
	)
}

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
