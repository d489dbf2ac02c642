import { CopyIcon } from 'lucide-react'
import { useState } from 'react'
import type { UserView } from '@shared/user'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { copyText } from '@ui/components/ui/copy'
import { TransferDialog } from '@ui/features/settings/personal/transfer-dialog'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useHydrated } from '@ui/lib/use-hydrated'

/** Until hydration the link uses the configured server address, so server and browser render alike. */
function useInvitationLink(affiliateCode: string) {
	const status = useStatus()
	const hydrated = useHydrated()
	const origin = hydrated ? window.location.origin : status.server_address
	return `${origin}/register?aff=${encodeURIComponent(affiliateCode)}`
}

export function InvitationCard({ user, affiliateCode }: { user: UserView; affiliateCode: string }) {
	const { t } = useTranslation()
	const status = useStatus()
	const [transferOpen, setTransferOpen] = useState(false)
	const link = useInvitationLink(affiliateCode)
	return (
		<Card data-testid="invitation-card">
			<CardHeader>
				<CardTitle className="text-base">{t('邀请奖励')}</CardTitle>
				<CardDescription>{t('通过你的邀请链接注册的用户会为你带来奖励')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-3 sm:grid-cols-3">
				<div className="flex flex-col gap-1">
					<span className="text-xs text-muted-foreground">{t('待使用收益')}</span>
					<span className="font-semibold tabular-nums" data-testid="aff-quota">{renderQuota(user.aff_quota, status)}</span>
					<Button size="sm" variant="outline" className="w-fit" onClick={() => setTransferOpen(true)}>
						{t('划转到余额')}
					</Button>
				</div>
				<div className="flex flex-col gap-1">
					<span className="text-xs text-muted-foreground">{t('总收益')}</span>
					<span className="font-semibold tabular-nums" data-testid="aff-history-quota">{renderQuota(user.aff_history_quota, status)}</span>
				</div>
				<div className="flex flex-col gap-1">
					<span className="text-xs text-muted-foreground">{t('邀请人数')}</span>
					<span className="font-semibold tabular-nums" data-testid="aff-count">{user.aff_count}</span>
				</div>
			</CardContent>
			<CardContent className="flex flex-col gap-2">
				<span className="text-sm font-medium">{t('邀请链接')}</span>
				<div className="flex gap-2">
					<button
						type="button"
						data-testid="invitation-link"
						title={t('点击复制邀请链接')}
						className="min-w-0 flex-1 truncate rounded-md border bg-muted/30 px-3 py-2 text-left font-mono text-xs hover:bg-accent"
						onClick={() => copyText(link, t)}
					>
						{link}
					</button>
					<Button variant="outline" size="icon" aria-label={t('复制邀请链接')} onClick={() => copyText(link, t)}>
						<CopyIcon />
					</Button>
				</div>
			</CardContent>
			<TransferDialog open={transferOpen} onOpenChange={setTransferOpen} affiliateQuota={user.aff_quota} />
		</Card>
	)
}
