import { channelOtherInfoSchema, TAG_STATUS, type ChannelTagRow, type ChannelView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { Badge } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { useTranslation } from '@ui/i18n'
import { useFormatTime } from '@ui/lib/time-zone'

function readOtherInfo(text: string) {
	if (!text) return {}
	try {
		const parsed = channelOtherInfoSchema.safeParse(JSON.parse(text))
		return parsed.success ? parsed.data : {}
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
