import { KeyRoundIcon } from 'lucide-react'
import { TAG_STATUS } from '@shared/channel-constants'
import type { ChannelKeyCounts, ChannelOtherInfo, ChannelTagRow, ChannelView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { Badge } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { useTranslation } from '@ui/i18n'
import { useFormatTime } from '@ui/lib/time-zone'

/**
 * `other_info` is the server's JSON text of `channelOtherInfoSchema`. Its two fields are read by hand
 * so that the list does not load zod for a tooltip; a field of the wrong type counts as absent.
 */
function readOtherInfo(text: string): ChannelOtherInfo {
	if (!text) return {}
	try {
		const parsed: unknown = JSON.parse(text)
		if (typeof parsed !== 'object' || parsed === null) return {}
		const { status_reason: reason, status_time: time } = parsed as Record<string, unknown>
		return { status_reason: typeof reason === 'string' ? reason : undefined, status_time: typeof time === 'number' ? time : undefined }
	} catch {
		return {}
	}
}

/** Enabled, disabled by hand, or auto-disabled with the reason and time in a tooltip. */
export function ChannelStatus({ channel }: { channel: ChannelView }) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	if (channel.status === CHANNEL_STATUS.enabled) return <Badge variant="green">{t('已启用')}</Badge>
	if (channel.status === CHANNEL_STATUS.manuallyDisabled) return <Badge variant="red">{t('已禁用')}</Badge>
	if (channel.status !== CHANNEL_STATUS.autoDisabled) return <Badge variant="grey">{t('未知状态')}</Badge>
	const info = readOtherInfo(channel.other_info)
	const details = (
		<span className="flex flex-col gap-1" data-testid="auto-disabled-details">
			<span>{t('原因：{reason}', { reason: info.status_reason || t('未知') })}</span>
			<span>{t('时间：{time}', { time: info.status_time ? formatTime(info.status_time) : t('未知') })}</span>
		</span>
	)
	return (
		<Tooltip content={details}>
			<Badge variant="yellow" tabIndex={0} className="cursor-help" data-testid="auto-disabled">
				{t('已自动禁用')}
			</Badge>
		</Tooltip>
	)
}

/** A tag row: all enabled, all disabled, or some of each (counts in the tooltip). */
export function TagStatus({ row }: { row: ChannelTagRow }) {
	const { t } = useTranslation()
	if (row.status === TAG_STATUS.enabled) return <Badge variant="green">{t('已启用')}</Badge>
	if (row.status === TAG_STATUS.disabled) return <Badge variant="red">{t('已禁用')}</Badge>
	return (
		<Tooltip content={t('{enabled} 个启用，{disabled} 个手动禁用，{auto} 个自动禁用', { enabled: row.enabled_count, disabled: row.manually_disabled_count, auto: row.auto_disabled_count })}>
			<Badge variant="orange" tabIndex={0} className="cursor-help">
				{t('部分启用')}
			</Badge>
		</Tooltip>
	)
}

/**
 * A multi-key channel's keys, compactly: usable of all (yellow when some were auto-disabled), the
 * counts by status in the tooltip. Nothing for a single-key channel.
 */
export function KeyCounts({ counts }: { counts: ChannelKeyCounts | null }) {
	const { t } = useTranslation()
	if (!counts) return null
	const details = t('{total} 个密钥：{enabled} 个启用，{auto} 个自动禁用，{manual} 个手动禁用', {
		total: counts.total, enabled: counts.enabled, auto: counts.auto_disabled, manual: counts.manually_disabled,
	})
	return (
		<Tooltip content={details}>
			<Badge variant={counts.auto_disabled > 0 ? 'yellow' : 'outline'} tabIndex={0} className="cursor-help tabular-nums" data-testid="key-counts" aria-label={details}>
				<KeyRoundIcon />
				{counts.enabled}/{counts.total}
			</Badge>
		</Tooltip>
	)
}
