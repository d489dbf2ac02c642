import { RESPONSE_TIME_TIERS_MS } from '@shared/channel-constants'
import { Badge, type BadgeVariant } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { useTranslation } from '@ui/i18n'
import { millisecondsAsSeconds } from '@ui/lib/format'
import { useFormatTime } from '@ui/lib/time-zone'

function responseTimeVariant(milliseconds: number): BadgeVariant {
	if (milliseconds <= RESPONSE_TIME_TIERS_MS.fast) return 'green'
	if (milliseconds <= RESPONSE_TIME_TIERS_MS.fair) return 'lime'
	if (milliseconds <= RESPONSE_TIME_TIERS_MS.slow) return 'yellow'
	return 'red'
}

const MILLISECONDS_PER_SECOND = 1000

/** 0 is untested; otherwise seconds (milliseconds under one), coloured by tier. */
export function ResponseTime({ milliseconds, testTime }: { milliseconds: number; testTime?: number }) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	if (milliseconds <= 0) return <Badge variant="grey">{t('未测试')}</Badge>
	const variant = responseTimeVariant(milliseconds)
	const badge = (
		<Badge variant={variant} data-tier={variant} tabIndex={testTime ? 0 : undefined}>
			{milliseconds < MILLISECONDS_PER_SECOND ? t('{milliseconds} 毫秒', { milliseconds: Math.round(milliseconds) }) : t('{seconds} 秒', { seconds: millisecondsAsSeconds(milliseconds, 2) })}
		</Badge>
	)
	if (!testTime) return badge
	return <Tooltip content={t('测试时间：{time}', { time: formatTime(testTime) })}>{badge}</Tooltip>
}

export const formatBalance = (balance: number) => `$${balance.toFixed(2)}`
