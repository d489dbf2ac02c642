import { type FormEvent, useEffect, useState } from 'react'
import { REDEMPTION_CREATE_MAX_COUNT } from '@shared/redemption-constants'
import { TOKEN_QUOTA_PRESETS } from '@shared/token-constants'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Sheet, SheetBody, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@ui/components/ui/sheet'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { createRedemptions, type RedemptionView, updateRedemption } from '@ui/features/redemptions/api'
import { newRedemptionValues, readRedemptionFields, redemptionValues, type RedemptionFormValues } from '@ui/features/redemptions/redemption-form'
import { Field } from '@ui/components/ui/field'
import { quotaToDisplay } from '@ui/lib/format'
import { SheetFormActions } from '@ui/components/ui/sheet-form-actions'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import type { PlanView } from '@shared/plan'

/** What the drawer edits: new codes, or an existing one read fresh from the server. */
export type DrawerTarget = { kind: 'create' } | { kind: 'edit'; code: RedemptionView }

/** The codes a creation produced, with the name they were given. */
export type CreatedCodes = { name: string; keys: string[] }

type RedemptionDrawerProps = {
	target: DrawerTarget | null
	onClose: () => void
	onSaved: (created?: CreatedCodes) => void
}

export function RedemptionDrawer({ target, onClose, onSaved }: RedemptionDrawerProps) {
	const { t } = useTranslation()
	return (
		<Sheet open={target !== null} onOpenChange={(open) => !open && onClose()}>
			<SheetContent>
				<SheetHeader>
					<SheetTitle>{t(target?.kind === 'edit' ? '编辑兑换码' : '添加兑换码')}</SheetTitle>
					<SheetDescription>{t('兑换码被使用后即失效，额度计入兑换人的钱包')}</SheetDescription>
				</SheetHeader>
				{/* keyed so that every opening starts from the target's values */}
				{target && <RedemptionForm key={target.kind === 'edit' ? target.code.id : 'create'} target={target} onClose={onClose} onSaved={onSaved} />}
			</SheetContent>
		</Sheet>
	)
}

function RedemptionForm({ target, onClose, onSaved }: Omit<RedemptionDrawerProps, 'target'> & { target: DrawerTarget }) {
	const { t } = useTranslation()
	const status = useStatus()
	const creating = target.kind === 'create'
	const [values, setValues] = useState<RedemptionFormValues>(() => (target.kind === 'edit' ? redemptionValues(target.code, status) : newRedemptionValues(status)))
	const [submitting, setSubmitting] = useState(false)
	// A new code may grant a plan instead of quota ('0': quota).
	const [plans, setPlans] = useState<PlanView[]>([])
	const [planId, setPlanId] = useState('0')
	const plan = plans.find((candidate) => String(candidate.id) === planId)
	const set = <Field extends keyof RedemptionFormValues>(field: Field, value: string) => setValues((previous) => ({ ...previous, [field]: value }))
	useEffect(() => {
		if (!creating) return
		browserApi.get<PlanView[]>('/api/plan/').then((envelope) => { if (envelope.success) setPlans(envelope.data) }).catch(() => {})
	}, [creating])

	async function save() {
		const fields = readRedemptionFields(plan ? { ...values, name: values.name.trim() || plan.name } : values, status, creating)
		if (fields.problem) {
			toast.error(t(fields.problem.message, fields.problem.values))
			return
		}
		const { name, quota, count } = fields.value
		if (target.kind === 'edit') {
			if (await callApi(t, updateRedemption(browserApi, { id: target.code.id, name, quota }), '兑换码更新成功')) onSaved()
			return
		}
		const created = await callApi(t, createRedemptions(browserApi, { name, quota, count, ...(plan ? { plan_id: plan.id } : {}) }), '兑换码创建成功')
		if (created) onSaved({ name, keys: created.data })
	}

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		setSubmitting(true)
		try {
			await save()
		} finally {
			setSubmitting(false)
		}
	}

	return (
		<form noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col gap-4">
			<SheetBody>
				<Field id="redemption-name" label="名称" hint={creating ? t('留空时以额度作为名称') : undefined}>
					<Input id="redemption-name" value={values.name} placeholder={t('请输入名称')} autoComplete="off" onChange={(event) => set('name', event.target.value)} />
				</Field>
				{creating && plans.length > 0 && (
					<Field id="redemption-grants" label="兑换内容" hint={t('选择套餐时，兑换码为兑换人开通该套餐，不增加额度')}>
						<Select value={planId} onValueChange={setPlanId}>
							<SelectTrigger id="redemption-grants"><SelectValue /></SelectTrigger>
							<SelectContent>
								<SelectItem value="0">{t('额度')}</SelectItem>
								{plans.map((candidate) => <SelectItem key={candidate.id} value={String(candidate.id)}>{t('套餐：{name}', { name: candidate.name })}</SelectItem>)}
							</SelectContent>
						</Select>
					</Field>
				)}
				{!plan && <Field id="redemption-quota" label={status.display_in_currency ? '额度（美元）' : '额度'}>
					<Input id="redemption-quota" inputMode="decimal" value={values.quota} onChange={(event) => set('quota', event.target.value)} />
					<div className="flex flex-wrap gap-1">
						{TOKEN_QUOTA_PRESETS.map((preset) => (
							<Button key={preset} type="button" variant="outline" size="sm" className="h-7 px-2 text-xs" onClick={() => set('quota', quotaToDisplay(preset, status))}>
								{renderQuota(preset, status, 0)}
							</Button>
						))}
					</div>
				</Field>}
				{creating && (
					<Field id="redemption-count" label="生成数量" hint={t('一次最多生成 {max} 个', { max: REDEMPTION_CREATE_MAX_COUNT })}>
						<Input id="redemption-count" inputMode="numeric" value={values.count} onChange={(event) => set('count', event.target.value)} />
					</Field>
				)}
			</SheetBody>
			<SheetFormActions onCancel={onClose} submitting={submitting} />
		</form>
	)
}
