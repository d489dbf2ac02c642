import { type FormEvent, useState } from 'react'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { transferAffiliateQuota } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { quotaFromDisplay, quotaToDisplay, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { CancelOrSubmit, PersonalDialog, useDialogCall } from './personal-dialog'

type TransferDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; affiliateQuota: number }

/**
 * Moves pending invitation income to the balance; the amount is in the site's money unit (dollars, or
 * quota units), at least one dollar's worth.
 */
export function TransferDialog({ open, onOpenChange, affiliateQuota }: TransferDialogProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const minimum = status.quota_per_unit
	const [amount, setAmount] = useState(quotaToDisplay(minimum, status))
	const { submitting, run } = useDialogCall(onOpenChange)
	const typed = Number(amount)
	const quota = Number.isFinite(typed) ? quotaFromDisplay(typed, status) : Number.NaN

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (!Number.isInteger(quota) || quota < minimum || (!status.display_in_currency && !Number.isInteger(typed))) {
			toast.error(t('划转金额最低为 {amount}', { amount: renderQuota(minimum, status) }))
			return
		}
		await run(transferAffiliateQuota(browserApi, quota), '划转成功')
	}

	return (
		<PersonalDialog open={open} onOpenChange={onOpenChange} title={t('划转邀请收益')} description={t('可用收益：{amount}', { amount: renderQuota(affiliateQuota, status) })}>
			<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
				<div className="flex flex-col gap-2">
					<Label htmlFor="transfer-amount">{t(status.display_in_currency ? '划转金额（美元）' : '划转额度')}</Label>
					<Input id="transfer-amount" type="number" inputMode="decimal" min={quotaToDisplay(minimum, status)} step={status.display_in_currency ? 'any' : 1} value={amount} onChange={(event) => setAmount(event.target.value)} />
					<p className="text-xs text-muted-foreground">{t('最低 {minimum}', { minimum: renderQuota(minimum, status) })}</p>
				</div>
				<CancelOrSubmit onCancel={() => onOpenChange(false)} submitting={submitting} label={t('划转')} />
			</form>
		</PersonalDialog>
	)
}
