import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { quotaAmountMessages, readQuotaAmount } from '@ui/features/users/quota-amount'

type AddQuotaDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; quota: number; onApply: (quota: number) => void }

/**
 * Adds a (possibly negative) amount in the site's money unit to the edit form's remaining quota;
 * saving the form applies it. The result may not go below zero.
 */
export function AddQuotaDialog({ open, onOpenChange, quota, onApply }: AddQuotaDialogProps) {
	const { t } = useTranslation()
	const status = useStatus()
	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('添加额度')}</DialogTitle>
					<DialogDescription>{t(status.display_in_currency ? '输入要增加的金额（美元），负数表示扣减。' : '输入要增加的额度，负数表示扣减。')}</DialogDescription>
				</DialogHeader>
				{open && <AddQuotaForm quota={quota} onCancel={() => onOpenChange(false)} onApply={onApply} />}
			</DialogContent>
		</Dialog>
	)
}

function AddQuotaForm({ quota, onCancel, onApply }: { quota: number; onCancel: () => void; onApply: (quota: number) => void }) {
	const { t } = useTranslation()
	const status = useStatus()
	const [text, setText] = useState('')
	const read = readQuotaAmount(text.trim() || '0', status, { signed: true })
	const delta = 'quota' in read ? read.quota : 0
	const next = quota + delta
	// Whole units in full (an abbreviation would hide the change), dollars as the console shows money.
	const shown = (amount: number) => (status.display_in_currency ? renderQuota(amount, status) : String(amount))

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if ('problem' in read) {
			toast.error(t(read.problem.message, read.problem.values))
			return
		}
		if (next < 0) {
			toast.error(t(quotaAmountMessages.negative))
			return
		}
		onApply(next)
	}

	return (
		<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
			<div className="flex flex-col gap-2">
				<Label htmlFor="add-quota-amount">{t('增加的额度')}</Label>
				<Input id="add-quota-amount" type="number" step={status.display_in_currency ? 'any' : 1} inputMode="decimal" autoComplete="off" placeholder={t(status.display_in_currency ? '例如 10 或 -0.5' : '例如 500000 或 -500000')} value={text} onChange={(event) => setText(event.target.value)} />
			</div>
			<p data-testid="quota-preview" className="rounded-md bg-muted px-3 py-2 text-sm tabular-nums">
				{'quota' in read ? `${shown(quota)} + ${delta < 0 ? `(${shown(delta)})` : shown(delta)} = ${shown(next)}` : t(read.problem.message, read.problem.values)}
			</p>
			<DialogFooter>
				<Button type="button" variant="outline" onClick={onCancel}>{t('取消')}</Button>
				<Button type="submit">{t('确定')}</Button>
			</DialogFooter>
		</form>
	)
}
