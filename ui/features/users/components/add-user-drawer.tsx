import { type FormEvent, useState } from 'react'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@shared/user-constants'
import { Input } from '@ui/components/ui/input'
import { Field } from '@ui/components/ui/field'
import { Sheet, SheetBody, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@ui/components/ui/sheet'
import { createUser } from '@ui/features/users/api'
import { checkCredentials } from '@ui/features/users/user-validation'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { SheetFormActions } from '@ui/components/ui/sheet-form-actions'
import { useFormProblem } from '@ui/lib/use-form-problem'

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
	const problems = useFormProblem()

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const name = username.trim()
		if (problems.report(checkCredentials(name, password, { passwordRequired: true }))) return
		setSubmitting(true)
		const created = await callApi(t, createUser(browserApi, { username: name, display_name: displayName.trim(), password }), '用户创建成功')
		setSubmitting(false)
		if (created) onCreated()
	}

	return (
		<form noValidate onSubmit={handleSubmit} className="flex flex-1 flex-col gap-4 overflow-hidden">
			<SheetBody>
				<Field id="add-user-username" label="用户名" error={problems.errorOf('username')}>
					<Input id="add-user-username" autoComplete="off" maxLength={USERNAME_MAX_LENGTH} placeholder={t('请输入用户名，最长 {max} 位', { max: USERNAME_MAX_LENGTH })} value={username} onChange={(event) => setUsername(event.target.value)} {...problems.control('username', 'add-user-username')} />
				</Field>
				<Field id="add-user-display-name" label="显示名称">
					<Input id="add-user-display-name" autoComplete="off" placeholder={t('请输入显示名称，留空则同用户名')} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
				</Field>
				<Field id="add-user-password" label="密码" error={problems.errorOf('password')}>
					<Input id="add-user-password" type="password" autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} placeholder={t('请输入密码，{min} 到 {max} 位', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })} value={password} onChange={(event) => setPassword(event.target.value)} {...problems.control('password', 'add-user-password')} />
				</Field>
			</SheetBody>
			<SheetFormActions onCancel={onCancel} submitting={submitting} />
		</form>
	)
}
