import { type FormEvent, useState } from 'react'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { transferAffiliateQuota } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { CancelOrSubmit, PersonalDialog, useDialogCall } from './personal-dialog'

type TransferDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; affiliateQuota: number }

/** Moves pending invitation income to the balance; the amount is in quota units, at least one unit's worth. */
export function TransferDialog({ open, onOpenChange, affiliateQuota }: TransferDialogProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const [amount, setAmount] = useState(String(status.quota_per_unit))
	const { submitting, run } = useDialogCall(onOpenChange)
	const quota = Number(amount)
	const minimum = status.quota_per_unit

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (!Number.isInteger(quota) || quota < minimum) {
			toast.error(t('划转金额最低为 {amount}', { amount: renderQuota(minimum, status) }))
			return
		}
		await run(transferAffiliateQuota(browserApi, quota), '划转成功')
	}

	return (
		<PersonalDialog open={open} onOpenChange={onOpenChange} title={t('划转邀请收益')} description={t('可用收益：{amount}', { amount: renderQuota(affiliateQuota, status) })}>
			<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
				<div className="flex flex-col gap-2">
					<Label htmlFor="transfer-amount">{t('划转额度')}</Label>
					<Input id="transfer-amount" type="number" inputMode="numeric" min={minimum} step={1} value={amount} onChange={(event) => setAmount(event.target.value)} />
					<p className="text-xs text-muted-foreground">
						{t('约 {amount}，最低 {minimum}', { amount: renderQuota(Number.isFinite(quota) ? quota : 0, status), minimum: renderQuota(minimum, status) })}
					</p>
				</div>
				<CancelOrSubmit onCancel={() => onOpenChange(false)} submitting={submitting} label={t('划转')} />
			</form>
		</PersonalDialog>
	)
}
