import { useLoaderData } from 'react-router'
import { BalanceCard } from '@ui/features/top-up/components/balance-card'
import { OnlineTopUpCard } from '@ui/features/top-up/components/online-top-up-card'
import { RedeemCard } from '@ui/features/top-up/components/redeem-card'
import { ReturnNotice } from '@ui/features/top-up/components/return-notice'
import { TopUpRecords } from '@ui/features/top-up/components/top-up-records'
import type { TopUpPageData } from '@ui/features/top-up/top-up-route'
import { useTranslation } from '@ui/i18n'

/** The wallet (docs/specification/tokens-and-money.md#the-wallet): balance, redeem a code, online top-up, and the latest orders. */
export function TopUpPage() {
	const { t } = useTranslation()
	const { user, records, returned } = useLoaderData() as TopUpPageData
	return (
		<div className="flex flex-col gap-4">
			<h1 className="text-xl font-semibold">{t('钱包')}</h1>
			{returned ? <ReturnNotice returned={returned} /> : null}
			<BalanceCard user={user} />
			<div className="grid gap-4 lg:grid-cols-2">
				<RedeemCard />
				<OnlineTopUpCard balance={user.quota} />
			</div>
			<TopUpRecords records={records} />
		</div>
	)
}
