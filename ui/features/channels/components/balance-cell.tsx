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

/** The balance; a click asks the upstream for the current one (`GET /api/channel/update_balance/{id}/`). */
export function BalanceCell({ channel }: { channel: ChannelView }) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	const run = useChannelAction()
	const [updating, setUpdating] = useState(false)

	async function update() {
		setUpdating(true)
		await run(updateBalance(browserApi, channel.id), (balance) =>
			typeof balance === 'number' ? t('余额已更新：{balance}', { balance: formatBalance(balance) }) : t('余额已更新'))
		setUpdating(false)
	}

	const hint = channel.balance_updated_time
		? t('点击更新余额（上次更新：{time}）', { time: formatTime(channel.balance_updated_time) })
		: t('点击更新余额')
	return (
		<Tooltip content={hint}>
			<Button variant="ghost" size="sm" className="h-7 px-2 tabular-nums" disabled={updating} aria-label={t('更新余额')} onClick={update}>
				{formatBalance(channel.balance)}
			</Button>
		</Tooltip>
	)
}
