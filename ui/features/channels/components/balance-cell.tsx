import { useState } from 'react'
import type { ChannelView } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { Tooltip } from '@ui/components/ui/tooltip'
import { updateBalance } from '@ui/features/channels/api'
import { formatBalance } from '@ui/features/channels/components/metric-cells'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { useFormatTime } from '@ui/lib/time-zone'

/**
 * The balance; a click asks the upstream for the current one (`GET /api/channel/update_balance/{id}/`).
 * A balance never read says so rather than show $0.00, and so does one whose last reading here failed.
 */
export function BalanceCell({ channel }: { channel: ChannelView }) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	const run = useChannelAction()
	const [updating, setUpdating] = useState(false)
	const [failed, setFailed] = useState(false)
	const read = channel.balance_updated_time > 0

	async function update() {
		setUpdating(true)
		const envelope = await run(updateBalance(browserApi, channel.id), (balance) =>
			typeof balance === 'number' ? t('余额已更新：{balance}', { balance: formatBalance(balance) }) : t('余额已更新'))
		setFailed(envelope === undefined)
		setUpdating(false)
	}

	const hint = failed
		? t('获取余额失败，点击重试')
		: read ? t('点击更新余额（上次更新：{time}）', { time: formatTime(channel.balance_updated_time) }) : t('点击获取余额')
	return (
		<Tooltip content={hint}>
			<Button variant="ghost" size="sm" className="h-7 px-2 tabular-nums" disabled={updating} aria-label={t('更新余额')} data-balance-state={failed ? 'failed' : read ? 'read' : 'unread'} onClick={update}>
				{failed ? <span className="text-destructive">{t('获取失败')}</span> : read ? formatBalance(channel.balance) : <span className="text-muted-foreground">{t('未获取')}</span>}
			</Button>
		</Tooltip>
	)
}
