import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

export const negativeQuotaMessage = '剩余额度不能为负数'

type AddQuotaDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; quota: number; onApply: (quota: number) => void }

/** Adds a (possibly negative) amount of quota units to the edit form's remaining quota; saving the form applies it. */
export function AddQuotaDialog({ open, onOpenChange, quota, onApply }: AddQuotaDialogProps) {
	const { t } = useTranslation()
	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('添加额度')}</DialogTitle>
					<DialogDescription>{t('输入要增加的额度，负数表示扣减。')}</DialogDescription>
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
	const delta = Number(text.trim() || 0)
	const valid = Number.isSafeInteger(delta)
	const next = valid ? quota + delta : quota

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (!valid) {
			toast.error(t('请输入整数'))
			return
		}
		if (next < 0) {
			toast.error(t(negativeQuotaMessage))
			return
		}
		onApply(next)
	}

	return (
		<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
			<div className="flex flex-col gap-2">
				<Label htmlFor="add-quota-amount">{t('增加的额度')}</Label>
				<Input id="add-quota-amount" type="number" step={1} autoComplete="off" placeholder={t('例如 500000 或 -500000')} value={text} onChange={(event) => setText(event.target.value)} />
			</div>
			<p data-testid="quota-preview" className="rounded-md bg-muted px-3 py-2 text-sm tabular-nums">
				{valid ? `${quota} + ${delta < 0 ? `(${delta})` : delta} = ${next}` : t('请输入整数')}
				{valid && next >= 0 && <span className="block text-xs text-muted-foreground">{`${renderQuota(quota, status)} → ${renderQuota(next, status)}`}</span>}
			</p>
			<DialogFooter>
				<Button type="button" variant="outline" onClick={onCancel}>{t('取消')}</Button>
				<Button type="submit">{t('确定')}</Button>
			</DialogFooter>
		</form>
	)
}
