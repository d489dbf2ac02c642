import type { SubscriptionView } from '@shared/plan'
import { Badge } from '@ui/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { useTranslation } from '@ui/i18n'
import { useFormatTime } from '@ui/lib/time-zone'
import { WindowMeters } from '@ui/features/plans/components/window-meters'

/** A subscription: its plan's name, until when, the models and group it brings, and its window meters. */
export function SubscriptionCard({ subscription, onReset }: { subscription: SubscriptionView; onReset?: (index: number) => void }) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	return (
		<Card data-testid="subscription-card" data-subscription={subscription.id}>
			<CardHeader>
				<CardTitle className="flex flex-wrap items-center gap-2">
					<span>{subscription.name}</span>
					{subscription.active ? <Badge variant="green">{t('生效中')}</Badge> : <Badge variant="grey">{t('已到期')}</Badge>}
				</CardTitle>
				<CardDescription>
					{t('{time} 到期', { time: formatTime(subscription.expires_at) })}
					{' · '}
					{subscription.models.length > 0 ? t('适用模型：{models}', { models: subscription.models.join(', ') }) : t('适用于全部模型')}
					{subscription.group ? ` · ${t('使用分组 {group}', { group: subscription.group })}` : ''}
				</CardDescription>
			</CardHeader>
			<CardContent>
				<WindowMeters windows={subscription.windows} onReset={onReset} />
			</CardContent>
		</Card>
	)
}
