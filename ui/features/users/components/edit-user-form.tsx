import { type FormEvent, useState } from 'react'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@shared/user-constants'
import type { UserView } from '@shared/user'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { SheetBody } from '@ui/components/ui/sheet'
import { Field, FieldMessage } from '@ui/components/ui/field'
import type { BindingProvider } from '@shared/oauth'
import { unbindUserProvider, updateUser } from '@ui/features/users/api'
import { UnbindButton } from '@ui/features/settings/personal/unbind-button'
import { AddQuotaDialog } from '@ui/features/users/components/add-quota-dialog'
import { readQuotaAmount } from '@ui/features/users/quota-amount'
import { checkCredentials } from '@ui/features/users/user-validation'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { quotaToDisplay } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { SheetFormActions } from '@ui/components/ui/sheet-form-actions'
import { useFormProblem } from '@ui/lib/use-form-problem'
import { RATE_LIMIT_MAX, CONCURRENCY_LIMIT_MAX } from '@shared/rate-limit-constants'
import { RateLimitFields, type RateLimitValues } from '@ui/features/tokens/components/rate-limit-fields'
import { limitMessages, readLimit } from '@ui/features/tokens/rate-limit-form'
import { UserSubscriptions } from '@ui/features/plans/components/user-subscriptions'

type EditUserFormProps = { user: UserView; groups: string[]; onCancel: () => void; onSaved: () => void }

/** `provider`: the sign-in service an admin may unbind from this row (email is not one). */
const bindings = [
	{ key: 'github_id', label: '已绑定的 GitHub 账户', provider: 'github', name: 'GitHub' },
	{ key: 'wechat_id', label: '已绑定的微信账户', provider: 'wechat', name: '微信' },
	{ key: 'email', label: '已绑定的邮箱账户' },
	{ key: 'telegram_id', label: '已绑定的 Telegram 账户', provider: 'telegram', name: 'Telegram' },
] as const satisfies readonly { key: keyof UserView; label: string; provider?: BindingProvider; name?: string }[]

export function EditUserForm({ user, groups, onCancel, onSaved }: EditUserFormProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const [username, setUsername] = useState(user.username)
	const [password, setPassword] = useState('')
	const [displayName, setDisplayName] = useState(user.display_name)
	const [group, setGroup] = useState(user.group)
	// In the site's money unit, as every amount the console shows (dollars, or quota units).
	const [quotaText, setQuotaText] = useState(quotaToDisplay(user.quota, status))
	const [addingQuota, setAddingQuota] = useState(false)
	const [limits, setLimits] = useState<RateLimitValues & { concurrencyLimit: string }>({
		rpmLimit: String(user.rpm_limit), tpmLimit: String(user.tpm_limit), rpdLimit: String(user.rpd_limit), concurrencyLimit: String(user.concurrency_limit),
	})
	const [submitting, setSubmitting] = useState(false)
	const [unbound, setUnbound] = useState<string[]>([])
	const problems = useFormProblem()
	const quotaRead = readQuotaAmount(quotaText, status)
	const groupChoices = groups.includes(user.group) ? groups : [user.group, ...groups]

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const name = username.trim()
		const limitValues = {
			rpm_limit: readLimit(limits.rpmLimit, RATE_LIMIT_MAX), tpm_limit: readLimit(limits.tpmLimit, RATE_LIMIT_MAX),
			rpd_limit: readLimit(limits.rpdLimit, RATE_LIMIT_MAX), concurrency_limit: readLimit(limits.concurrencyLimit, CONCURRENCY_LIMIT_MAX),
		}
		const limitProblem = limitValues.rpm_limit === undefined ? { message: limitMessages.rpmLimitInvalid, values: { max: RATE_LIMIT_MAX }, fields: ['rpmLimit'] }
			: limitValues.tpm_limit === undefined ? { message: limitMessages.tpmLimitInvalid, values: { max: RATE_LIMIT_MAX }, fields: ['tpmLimit'] }
			: limitValues.rpd_limit === undefined ? { message: limitMessages.rpdLimitInvalid, values: { max: RATE_LIMIT_MAX }, fields: ['rpdLimit'] }
			: limitValues.concurrency_limit === undefined ? { message: limitMessages.concurrencyLimitInvalid, values: { max: CONCURRENCY_LIMIT_MAX }, fields: ['concurrencyLimit'] }
			: undefined
		const problem = checkCredentials(name, password, { passwordRequired: false })
			?? ('problem' in quotaRead ? { ...quotaRead.problem, fields: ['quota'] } : undefined)
			?? limitProblem
		if (problems.report(problem) || 'problem' in quotaRead) return
		setSubmitting(true)
		const changes = { id: user.id, username: name, display_name: displayName.trim(), group, quota: quotaRead.quota, ...limitValues, ...(password ? { password } : {}) }
		const saved = await callApi(t, updateUser(browserApi, changes), '用户信息更新成功')
		setSubmitting(false)
		if (saved) onSaved()
	}

	return (
		<>
			<form noValidate onSubmit={handleSubmit} className="flex flex-1 flex-col gap-4 overflow-hidden">
				<SheetBody>
					<Field id="edit-user-username" label="用户名" error={problems.errorOf('username')}>
						<Input id="edit-user-username" autoComplete="off" maxLength={USERNAME_MAX_LENGTH} value={username} onChange={(event) => setUsername(event.target.value)} {...problems.control('username', 'edit-user-username')} />
					</Field>
					<Field id="edit-user-password" label="密码" error={problems.errorOf('password')}>
						<Input id="edit-user-password" type="password" autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} placeholder={t('请输入新的密码，最短 {min} 位；留空则不修改', { min: PASSWORD_MIN_LENGTH })} value={password} onChange={(event) => setPassword(event.target.value)} {...problems.control('password', 'edit-user-password')} />
					</Field>
					<div className="flex flex-col gap-2">
						<Label htmlFor="edit-user-display-name">{t('显示名称')}</Label>
						<Input id="edit-user-display-name" autoComplete="off" value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="edit-user-group">{t('分组')}</Label>
						<Select value={group} onValueChange={setGroup}>
							<SelectTrigger id="edit-user-group">
								<SelectValue />
							</SelectTrigger>
							<SelectContent>
								{groupChoices.map((name) => (
									<SelectItem key={name} value={name}>{name}</SelectItem>
								))}
							</SelectContent>
						</Select>
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="edit-user-quota">{t(status.display_in_currency ? '剩余额度（美元）' : '剩余额度')}</Label>
						<div className="flex gap-2">
							<Input id="edit-user-quota" type="number" step={status.display_in_currency ? 'any' : 1} min={0} inputMode="decimal" value={quotaText} onChange={(event) => setQuotaText(event.target.value)} {...problems.control('quota', 'edit-user-quota')} />
							<Button type="button" variant="outline" onClick={() => setAddingQuota(true)}>{t('添加额度')}</Button>
						</div>
						<FieldMessage id="edit-user-quota" error={problems.errorOf('quota')} />
					</div>
					<RateLimitFields idPrefix="edit-user" values={limits} onChange={(field, value) => setLimits((previous) => ({ ...previous, [field]: value }))} problems={problems} />
					<Field id="edit-user-concurrencyLimit" label="并发上限" hint={t('此用户所有令牌同时进行中的调用最多几个；0 表示不限')} error={problems.errorOf('concurrencyLimit')}>
						<Input id="edit-user-concurrencyLimit" inputMode="numeric" autoComplete="off" value={limits.concurrencyLimit} onChange={(event) => setLimits((previous) => ({ ...previous, concurrencyLimit: event.target.value }))} {...problems.control('concurrencyLimit', 'edit-user-concurrencyLimit')} />
					</Field>
					<UserSubscriptions userId={user.id} />
					{bindings.map((binding) => (
						<div key={binding.key} className="flex flex-col gap-2">
							<Label htmlFor={`edit-user-${binding.key}`}>{t(binding.label)}</Label>
							<div className="flex gap-2">
								<Input id={`edit-user-${binding.key}`} readOnly value={unbound.includes(binding.key) ? '' : user[binding.key]} placeholder={t('此项只读，由用户在个人设置中绑定')} />
								{'provider' in binding && user[binding.key] && !unbound.includes(binding.key) && (
									<UnbindButton
										testId={`edit-user-unbind-${binding.provider}`}
										label={t(binding.name)}
										unbind={() => unbindUserProvider(browserApi, user.id, binding.provider)}
										onUnbound={() => setUnbound((previous) => [...previous, binding.key])}
									/>
								)}
							</div>
						</div>
					))}
				</SheetBody>
				<SheetFormActions onCancel={onCancel} submitting={submitting} />
			</form>
			{/* Outside the form: React events bubble through portals, and the dialog has a form of its own. */}
			<AddQuotaDialog
				open={addingQuota}
				onOpenChange={setAddingQuota}
				quota={'quota' in quotaRead ? quotaRead.quota : user.quota}
				onApply={(next) => {
					setQuotaText(quotaToDisplay(next, status))
					setAddingQuota(false)
				}}
			/>
		</>
	)
}
