import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { listUserSubscriptions, resetWindows, type SubscriptionView } from '@ui/features/plans/api'
import { SubscriptionCard } from '@ui/features/plans/components/subscription-card'

/**
 * A user's subscriptions as an admin sees them in the user editor, with their window meters and a
 * reset for each window that has started (the audit trail records it).
 */
export function UserSubscriptions({ userId }: { userId: number }) {
	const { t } = useTranslation()
	const [subscriptions, setSubscriptions] = useState<SubscriptionView[] | undefined>()
	const load = useCallback(() => {
		listUserSubscriptions(browserApi, userId)
			.then((envelope) => setSubscriptions(envelope.success ? envelope.data : []))
			.catch(() => setSubscriptions([]))
	}, [userId])
	useEffect(load, [load])

	async function reset(subscriptionId: number, window: number) {
		if (await callApi(t, resetWindows(browserApi, userId, subscriptionId, window), '用量窗口已重置')) load()
	}

	return (
		<section className="flex flex-col gap-2" aria-label={t('订阅')} data-testid="user-subscriptions">
			<h3 className="text-sm font-medium">{t('订阅')}</h3>
			{subscriptions === undefined ? null : subscriptions.length === 0 ? (
				<p className="text-xs text-muted-foreground">{t('没有订阅')}</p>
			) : subscriptions.map((subscription) => (
				<SubscriptionCard key={subscription.id} subscription={subscription} onReset={(window) => void reset(subscription.id, window)} />
			))}
		</section>
	)
}
