import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { type RatioRow } from '@ui/features/settings/operation/ratio-rows'
import { NumericCell } from '@ui/features/settings/operation/ratio-cell'
import { useTranslation } from '@ui/i18n'

const ratioMessages = {
	duplicateModel: '模型名称已存在',
	modelNameRequired: '请输入模型名称',
} as const

const emptyRow: RatioRow = { name: '', price: '', ratio: '', completionRatio: '' }

type AddModelDialogProps = {
	open: boolean
	onOpenChange: (open: boolean) => void
	existing: (name: string) => boolean
	onAdd: (row: RatioRow) => void
}

/** A new row of the visual table; a fixed price leaves the ratio fields off (docs/specification/accounts-and-settings.md#operation-tab). */
export function AddModelDialog({ open, onOpenChange, existing, onAdd }: AddModelDialogProps) {
	const { t } = useTranslation()
	const [row, setRow] = useState(emptyRow)
	const priced = row.price !== ''
	const change = (field: keyof RatioRow) => (value: string) => setRow((current) => ({ ...current, [field]: value }))

	function close() {
		setRow(emptyRow)
		onOpenChange(false)
	}

	function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const name = row.name.trim()
		if (!name) return toast.error(t(ratioMessages.modelNameRequired))
		if (existing(name)) return toast.error(t(ratioMessages.duplicateModel))
		onAdd(priced ? { ...row, name, ratio: '', completionRatio: '' } : { ...row, name })
		close()
	}

	return (
		<Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('添加模型')}</DialogTitle>
					<DialogDescription>{t('设置了固定价格的模型按次计费，不再使用倍率。')}</DialogDescription>
				</DialogHeader>
				<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
					<div className="flex flex-col gap-2">
						<Label htmlFor="new-model-name">{t('模型名称')}</Label>
						<Input id="new-model-name" value={row.name} onChange={(event) => change('name')(event.target.value)} />
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="new-model-price">{t('固定价格（美元/次）')}</Label>
						<NumericCell id="new-model-price" value={row.price} onChange={change('price')} />
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="new-model-ratio">{t('模型倍率')}</Label>
						<NumericCell id="new-model-ratio" value={priced ? '' : row.ratio} disabled={priced} onChange={change('ratio')} />
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="new-model-completion-ratio">{t('补全倍率')}</Label>
						<NumericCell id="new-model-completion-ratio" value={priced ? '' : row.completionRatio} disabled={priced} onChange={change('completionRatio')} />
					</div>
					<DialogFooter>
						<Button type="button" variant="outline" onClick={close}>
							{t('取消')}
						</Button>
						<Button type="submit">{t('添加')}</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
