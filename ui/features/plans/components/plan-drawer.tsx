import { type FormEvent, useState } from 'react'
import { PlusIcon, Trash2Icon } from 'lucide-react'
import { PLAN_WINDOWS_MAX } from '@shared/plan-constants'
import { Button } from '@ui/components/ui/button'
import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Sheet, SheetBody, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@ui/components/ui/sheet'
import { SheetFormActions } from '@ui/components/ui/sheet-form-actions'
import { Switch } from '@ui/components/ui/switch'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'
import { useFormProblem } from '@ui/lib/use-form-problem'
import { createPlan, type PlanView, updatePlan } from '@ui/features/plans/api'
import { LengthInput } from '@ui/features/plans/components/length-input'
import { newPlanValues, planValues, readPlanFields, type PlanFormValues } from '@ui/features/plans/plan-form'
import { splitLength } from '@ui/features/plans/plan-display'

/** What the drawer edits: a new plan, or one from the list. */
export type PlanDrawerTarget = { kind: 'create' } | { kind: 'edit'; plan: PlanView }

type PlanDrawerProps = {
	target: PlanDrawerTarget | null
	onClose: () => void
	onSaved: () => void
}

export function PlanDrawer({ target, onClose, onSaved }: PlanDrawerProps) {
	const { t } = useTranslation()
	return (
		<Sheet open={target !== null} onOpenChange={(open) => !open && onClose()}>
			<SheetContent>
				<SheetHeader>
					<SheetTitle>{t(target?.kind === 'edit' ? '编辑套餐' : '添加套餐')}</SheetTitle>
					<SheetDescription>{t('每个用量窗口从首次调用起计时，到期后下次调用重新开始；修改套餐不影响已购买的订阅')}</SheetDescription>
				</SheetHeader>
				{target && <PlanForm key={target.kind === 'edit' ? target.plan.id : 'create'} target={target} onClose={onClose} onSaved={onSaved} />}
			</SheetContent>
		</Sheet>
	)
}

function PlanForm({ target, onClose, onSaved }: Omit<PlanDrawerProps, 'target'> & { target: PlanDrawerTarget }) {
	const { t } = useTranslation()
	const status = useStatus()
	const problem = useFormProblem()
	const [values, setValues] = useState<PlanFormValues>(() => (target.kind === 'edit' ? planValues(target.plan, status) : newPlanValues(status)))
	const [submitting, setSubmitting] = useState(false)
	const update = (changes: Partial<PlanFormValues>) => setValues((previous) => ({ ...previous, ...changes }))
	const updateWindow = (index: number, changes: Partial<PlanFormValues['windows'][number]>) =>
		setValues((previous) => ({ ...previous, windows: previous.windows.map((window, position) => (position === index ? { ...window, ...changes } : window)) }))
	const quotaLabel = status.display_in_currency ? '额度（美元）' : '额度'

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const fields = readPlanFields(values, status)
		if (problem.report(fields.problem)) return
		setSubmitting(true)
		try {
			const saved = target.kind === 'edit'
				? await callApi(t, updatePlan(browserApi, { ...fields.value!, id: target.plan.id }), '套餐已保存')
				: await callApi(t, createPlan(browserApi, fields.value!), '套餐已创建')
			if (saved) onSaved()
		} finally {
			setSubmitting(false)
		}
	}

	return (
		<form noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col gap-4" data-testid="plan-form">
			<SheetBody>
				<Field id="plan-name" label="名称" error={problem.errorOf('name')}>
					<Input id="plan-name" value={values.name} autoComplete="off" onChange={(event) => update({ name: event.target.value })} {...problem.control('name', 'plan-name')} />
				</Field>
				<Field id="plan-price" label={status.display_in_currency ? '价格（美元）' : '价格（额度）'} error={problem.errorOf('price')}>
					<Input id="plan-price" inputMode="decimal" value={values.price} onChange={(event) => update({ price: event.target.value })} {...problem.control('price', 'plan-price')} />
				</Field>
				<Field id="plan-duration" label="有效期" error={problem.errorOf('duration')}>
					<LengthInput id="plan-duration" value={values.duration} onChange={(duration) => update({ duration })} invalid={problem.control('duration', 'plan-duration')} />
				</Field>
				<fieldset className="flex flex-col gap-3">
					<legend className="mb-2 text-sm font-medium">{t('用量窗口')}</legend>
					<p className="text-xs text-muted-foreground">{t('调用由套餐支付时须每个窗口都有余量；任一窗口用完时改由钱包支付')}</p>
					{values.windows.map((window, index) => (
						<div key={index} className="flex flex-col gap-2 rounded-md border p-3" data-testid="plan-window">
							<div className="flex items-center justify-between">
								<span className="text-sm font-medium">{t('窗口 {index}', { index: index + 1 })}</span>
								{values.windows.length > 1 ? (
									<Button type="button" variant="ghost" size="sm" className="h-7 px-2 text-destructive" title={t('删除')} aria-label={t('删除')}
										onClick={() => update({ windows: values.windows.filter((_, position) => position !== index) })}>
										<Trash2Icon />
									</Button>
								) : null}
							</div>
							<Field id={`plan-window-${index}-length`} label="时长" error={problem.errorOf(`window-${index}-length`)}>
								<LengthInput id={`plan-window-${index}-length`} value={window.length} onChange={(length) => updateWindow(index, { length })} invalid={problem.control(`window-${index}-length`, `plan-window-${index}-length`)} />
							</Field>
							<Field id={`plan-window-${index}-quota`} label={quotaLabel} error={problem.errorOf(`window-${index}-quota`)}>
								<Input id={`plan-window-${index}-quota`} inputMode="decimal" value={window.quota} onChange={(event) => updateWindow(index, { quota: event.target.value })} {...problem.control(`window-${index}-quota`, `plan-window-${index}-quota`)} />
							</Field>
						</div>
					))}
					{values.windows.length < PLAN_WINDOWS_MAX ? (
						<Button type="button" variant="outline" size="sm" className="self-start" onClick={() => update({ windows: [...values.windows, { length: splitLength(7 * 24 * 3600), quota: '' }] })}>
							<PlusIcon />
							{t('添加窗口')}
						</Button>
					) : null}
				</fieldset>
				<Field id="plan-models" label="适用模型" hint={t('逗号分隔，留空表示全部模型')}>
					<Input id="plan-models" value={values.models} autoComplete="off" onChange={(event) => update({ models: event.target.value })} />
				</Field>
				<Field id="plan-group" label="分组" hint={t('订阅期间用户改用此分组，留空表示不变')}>
					<Input id="plan-group" value={values.group} autoComplete="off" onChange={(event) => update({ group: event.target.value })} />
				</Field>
				<div className="flex items-center gap-2">
					<Switch id="plan-enabled" checked={values.enabled} onCheckedChange={(enabled) => update({ enabled })} />
					<Label htmlFor="plan-enabled">{t('上架销售')}</Label>
				</div>
			</SheetBody>
			<SheetFormActions onCancel={onClose} submitting={submitting} />
		</form>
	)
}
