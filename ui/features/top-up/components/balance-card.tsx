import type { ReactNode } from 'react'
import type { UserView } from '@shared/user'
import { Card, CardContent, CardHeader, CardTitle } from '@ui/components/ui/card'
import { useTranslation } from '@ui/i18n'
import { abbreviateNumber, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

function Figure({ label, children, testId, quota }: { label: string; children: ReactNode; testId: string; quota?: number }) {
	return (
		<div className="flex flex-col gap-1 rounded-lg border bg-muted/30 p-3">
			<span className="text-xs text-muted-foreground">{label}</span>
			<span className="text-lg font-semibold tabular-nums" data-testid={testId} data-quota={quota}>
				{children}
			</span>
		</div>
	)
}

/** The balance as the server says to show quota, with what was used and how many calls. */
export function BalanceCard({ user }: { user: UserView }) {
	const { t } = useTranslation()
	const status = useStatus()
	return (
		<Card data-testid="wallet-balance-card">
			<CardHeader>
				<CardTitle>{t('余额概览')}</CardTitle>
			</CardHeader>
			<CardContent className="grid gap-3 sm:grid-cols-3">
				<Figure label={t('当前余额')} testId="wallet-balance" quota={user.quota}>
					{renderQuota(user.quota, status)}
				</Figure>
				<Figure label={t('历史消耗')} testId="wallet-used-quota" quota={user.used_quota}>
					{renderQuota(user.used_quota, status)}
				</Figure>
				<Figure label={t('请求次数')} testId="wallet-request-count">
					{abbreviateNumber(user.request_count)}
				</Figure>
			</CardContent>
		</Card>
	)
}
