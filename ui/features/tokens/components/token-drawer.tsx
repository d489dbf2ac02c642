import { type FormEvent, useState } from 'react'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Sheet, SheetBody, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@ui/components/ui/sheet'
import { Switch } from '@ui/components/ui/switch'
import { Textarea } from '@ui/components/ui/textarea'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'
import { createTokens, type TokenView, updateToken, type UsableGroups } from '@ui/features/tokens/api'
import { Field } from '@ui/components/ui/field'
import { CountField, ExpiryField, QuotaField } from '@ui/features/tokens/components/drawer-fields'
import { GroupSelect } from '@ui/features/tokens/components/group-select'
import { ModelPicker } from '@ui/features/tokens/components/model-picker'
import { changedFields, newTokenValues, readCount, readTokenFields, type TokenFormValues, tokenValues } from '@ui/features/tokens/token-form'
import { SheetFormActions } from '@ui/components/ui/sheet-form-actions'
import { useFormProblem } from '@ui/lib/use-form-problem'
import { RateLimitFields } from '@ui/features/tokens/components/rate-limit-fields'
import { WindowLimitFields } from '@ui/features/tokens/components/window-limit-fields'

/** What the drawer edits: a new token, or an existing one read fresh from the server. */
export type DrawerTarget = { kind: 'create' } | { kind: 'edit'; token: TokenView }

type TokenDrawerProps = {
	target: DrawerTarget | null
	models: string[]
	groups: UsableGroups
	onClose: () => void
	onSaved: () => void
}

export function TokenDrawer({ target, models, groups, onClose, onSaved }: TokenDrawerProps) {
	const { t } = useTranslation()
	return (
		<Sheet open={target !== null} onOpenChange={(open) => !open && onClose()}>
			<SheetContent>
				<SheetHeader>
					<SheetTitle>{t(target?.kind === 'edit' ? '编辑令牌' : '添加令牌')}</SheetTitle>
					<SheetDescription>{t('令牌的修改可能需要几分钟才会生效')}</SheetDescription>
				</SheetHeader>
				{/* keyed so that every opening starts from the target's values */}
				{target && <TokenForm key={target.kind === 'edit' ? target.token.id : 'create'} target={target} models={models} groups={groups} onClose={onClose} onSaved={onSaved} />}
			</SheetContent>
		</Sheet>
	)
}

function TokenForm({ target, models, groups, onClose, onSaved }: Omit<TokenDrawerProps, 'target'> & { target: DrawerTarget }) {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()
	const [initial] = useState(() => (target.kind === 'edit' ? tokenValues(target.token, status, formatTime) : newTokenValues(status)))
	const [values, setValues] = useState<TokenFormValues>(initial)
	const [submitting, setSubmitting] = useState(false)
	const set = <Field extends keyof TokenFormValues>(field: Field, value: TokenFormValues[Field]) => setValues((previous) => ({ ...previous, [field]: value }))
	const problems = useFormProblem()

	async function save(): Promise<boolean> {
		const fields = readTokenFields(values, status)
		const count = target.kind === 'create' ? readCount(values.count) : undefined
		if (problems.report(fields.problem ?? count?.problem)) return false
		if (!fields.value) return false
		if (target.kind === 'edit') {
			const before = readTokenFields(initial, status).value
			const changes = before ? changedFields(before, fields.value) : fields.value
			return (await callApi(t, updateToken(browserApi, { id: target.token.id, ...changes }), '令牌更新成功')) !== undefined
		}
		if (count?.value === undefined) return false
		const created = await callApi(t, createTokens(browserApi, { ...fields.value, count: count.value }))
		if (!created) return false
		toast.success(count.value > 1 ? t('已创建 {count} 个令牌', { count: created.data.length }) : t('令牌创建成功'))
		return true
	}

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		setSubmitting(true)
		try {
			if (await save()) onSaved()
		} finally {
			setSubmitting(false)
		}
	}

	return (
		<form noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col gap-4">
			<SheetBody>
				<Field id="token-name" label="名称" error={problems.errorOf('name')}>
					<Input id="token-name" value={values.name} placeholder={t('请输入令牌名称')} autoComplete="off" onChange={(event) => set('name', event.target.value)} {...problems.control('name', 'token-name')} />
				</Field>
				<ExpiryField value={values.expiry} onChange={(value) => set('expiry', value)} problems={problems} />
				<QuotaField quota={values.quota} unlimited={values.unlimitedQuota} onQuotaChange={(value) => set('quota', value)} onUnlimitedChange={(value) => set('unlimitedQuota', value)} problems={problems} />
				{target.kind === 'create' && <CountField value={values.count} onChange={(value) => set('count', value)} problems={problems} />}
				<Field id="token-concurrency-limit" label="并发上限" hint={t('同时进行中的调用最多几个，超出的调用得到 429；0 表示不限')} error={problems.errorOf('concurrencyLimit')}>
					<Input id="token-concurrency-limit" inputMode="numeric" value={values.concurrencyLimit} autoComplete="off" onChange={(event) => set('concurrencyLimit', event.target.value)} {...problems.control('concurrencyLimit', 'token-concurrency-limit')} />
				</Field>
				<WindowLimitFields values={values.windowLimits} otherWindows={values.otherWindows.length} onChange={(preset, value) => set('windowLimits', { ...values.windowLimits, [preset]: value })} problems={problems} />
				<RateLimitFields idPrefix="token" values={values} onChange={(field, value) => set(field, value)} problems={problems} />
				<Field id="token-allow-ips" label="IP 白名单" hint={t('每行一个 IP 地址或 CIDR 网段，留空表示不限制')}>
					<Textarea id="token-allow-ips" rows={3} value={values.allowIps} placeholder={'192.168.1.10\n10.0.0.0/8'} className="font-mono text-xs" onChange={(event) => set('allowIps', event.target.value)} />
				</Field>
				<div className="flex flex-col gap-2">
					<Label className="justify-between">
						{t('限制可用模型')}
						<Switch checked={values.modelLimitsEnabled} onCheckedChange={(checked) => set('modelLimitsEnabled', checked)} />
					</Label>
					{values.modelLimitsEnabled && <ModelPicker models={models} selected={values.models} onChange={(selected) => set('models', selected)} />}
				</div>
				<Field id="token-group" label="分组">
					<GroupSelect id="token-group" groups={groups} value={values.group} onChange={(group) => set('group', group)} />
				</Field>
				<div className="flex flex-col gap-1">
					<Label className="justify-between">
						{t('使用响应缓存')}
						<Switch checked={values.responseCache} onCheckedChange={(checked) => set('responseCache', checked)} data-testid="token-response-cache" />
					</Label>
					<p className="text-xs text-muted-foreground">{t('管理员开启响应缓存后，相同的请求可由缓存回答；关闭则此令牌的调用总是发往上游')}</p>
				</div>
			</SheetBody>
			<SheetFormActions onCancel={onClose} submitting={submitting} />
		</form>
	)
}
