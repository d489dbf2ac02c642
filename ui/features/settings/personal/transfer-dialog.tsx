import { type FormEvent, useState } from 'react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { transferAffiliateQuota } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

type TransferDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; affiliateQuota: number }

/** Moves pending invitation income to the balance; the amount is in quota units, at least one unit's worth. */
export function TransferDialog({ open, onOpenChange, affiliateQuota }: TransferDialogProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const revalidator = useRevalidator()
	const [amount, setAmount] = useState(String(status.quota_per_unit))
	const [submitting, setSubmitting] = useState(false)
	const quota = Number(amount)
	const minimum = status.quota_per_unit

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (!Number.isInteger(quota) || quota < minimum) {
			toast.error(t('划转金额最低为 {amount}', { amount: renderQuota(minimum, status) }))
			return
		}
		setSubmitting(true)
		const envelope = await callApi(t, transferAffiliateQuota(browserApi, quota), '划转成功')
		setSubmitting(false)
		if (!envelope) return
		onOpenChange(false)
		await revalidator.revalidate()
	}

	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('划转邀请收益')}</DialogTitle>
					<DialogDescription>{t('可用收益：{amount}', { amount: renderQuota(affiliateQuota, status) })}</DialogDescription>
				</DialogHeader>
				<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
					<div className="flex flex-col gap-2">
						<Label htmlFor="transfer-amount">{t('划转额度')}</Label>
						<Input id="transfer-amount" type="number" inputMode="numeric" min={minimum} step={1} value={amount} onChange={(event) => setAmount(event.target.value)} />
						<p className="text-xs text-muted-foreground">
							{t('约 {amount}，最低 {minimum}', { amount: renderQuota(Number.isFinite(quota) ? quota : 0, status), minimum: renderQuota(minimum, status) })}
						</p>
					</div>
					<DialogFooter>
						<Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
							{t('取消')}
						</Button>
						<Button type="submit" disabled={submitting}>
							{t('划转')}
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
