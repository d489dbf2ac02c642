import { type FormEvent, useState } from 'react'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@shared/user-constants'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Sheet, SheetBody, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@ui/components/ui/sheet'
import { toast } from '@ui/components/ui/toaster'
import { createUser } from '@ui/features/users/api'
import { checkCredentials } from '@ui/features/users/user-validation'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { SheetFormActions } from '@ui/components/ui/sheet-form-actions'

type AddUserDrawerProps = { open: boolean; onOpenChange: (open: boolean) => void; onCreated: () => void }

export function AddUserDrawer({ open, onOpenChange, onCreated }: AddUserDrawerProps) {
	const { t } = useTranslation()
	return (
		<Sheet open={open} onOpenChange={onOpenChange}>
			<SheetContent>
				<SheetHeader>
					<SheetTitle>{t('添加用户')}</SheetTitle>
					<SheetDescription>{t('新用户为普通用户，可在列表中提升为管理员。')}</SheetDescription>
				</SheetHeader>
				{/* Remounted on every opening, so the fields start empty. */}
				{open && <AddUserForm onCancel={() => onOpenChange(false)} onCreated={onCreated} />}
			</SheetContent>
		</Sheet>
	)
}

function AddUserForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: () => void }) {
	const { t } = useTranslation()
	const [username, setUsername] = useState('')
	const [displayName, setDisplayName] = useState('')
	const [password, setPassword] = useState('')
	const [submitting, setSubmitting] = useState(false)

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const name = username.trim()
		const problem = checkCredentials(name, password, { passwordRequired: true })
		if (problem) {
			toast.error(t(problem.message, problem.values))
			return
		}
		setSubmitting(true)
		const created = await callApi(t, createUser(browserApi, { username: name, display_name: displayName.trim(), password }), '用户创建成功')
		setSubmitting(false)
		if (created) onCreated()
	}

	return (
		<form noValidate onSubmit={handleSubmit} className="flex flex-1 flex-col gap-4 overflow-hidden">
			<SheetBody>
				<div className="flex flex-col gap-2">
					<Label htmlFor="add-user-username">{t('用户名')}</Label>
					<Input id="add-user-username" autoComplete="off" maxLength={USERNAME_MAX_LENGTH} placeholder={t('请输入用户名，最长 {max} 位', { max: USERNAME_MAX_LENGTH })} value={username} onChange={(event) => setUsername(event.target.value)} />
				</div>
				<div className="flex flex-col gap-2">
					<Label htmlFor="add-user-display-name">{t('显示名称')}</Label>
					<Input id="add-user-display-name" autoComplete="off" placeholder={t('请输入显示名称，留空则同用户名')} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
				</div>
				<div className="flex flex-col gap-2">
					<Label htmlFor="add-user-password">{t('密码')}</Label>
					<Input id="add-user-password" type="password" autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} placeholder={t('请输入密码，{min} 到 {max} 位', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })} value={password} onChange={(event) => setPassword(event.target.value)} />
				</div>
			</SheetBody>
			<SheetFormActions onCancel={onCancel} submitting={submitting} />
		</form>
	)
}
