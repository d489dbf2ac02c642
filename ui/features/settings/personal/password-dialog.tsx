import { type FormEvent, useState } from 'react'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shared/user-constants'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { findPasswordProblem, registerMessages } from '@ui/features/auth/register-validation'
import { changePassword } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { readStoredUser, storeUser } from '@ui/lib/storage'

/**
 * A new password ends the account's other sessions; the server hands this tab a fresh session
 * cookie, so the page stays signed in.
 */
export function PasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
	const { t } = useTranslation()
	const [password, setPassword] = useState('')
	const [repeated, setRepeated] = useState('')
	const [submitting, setSubmitting] = useState(false)
	const limits = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }

	function close() {
		setPassword('')
		setRepeated('')
		onOpenChange(false)
	}

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const problem = findPasswordProblem(password) ?? (password === repeated ? undefined : { message: registerMessages.passwordsDiffer })
		if (problem) {
			toast.error(t(problem.message, problem.values))
			return
		}
		setSubmitting(true)
		const envelope = await callApi(t, changePassword(browserApi, password, repeated), '密码修改成功')
		setSubmitting(false)
		if (!envelope) return
		const stored = readStoredUser()
		if (stored?.password_change_required) storeUser({ ...stored, password_change_required: false })
		close()
	}

	return (
		<Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('修改密码')}</DialogTitle>
					<DialogDescription>{t('修改后，其他设备上的登录将失效。')}</DialogDescription>
				</DialogHeader>
				<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
					<div className="flex flex-col gap-2">
						<Label htmlFor="new-password">{t('新密码')}</Label>
						<Input id="new-password" type="password" autoComplete="new-password" placeholder={t('输入密码，长度为 {min} 到 {max} 位', limits)} value={password} onChange={(event) => setPassword(event.target.value)} />
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="repeat-password">{t('确认新密码')}</Label>
						<Input id="repeat-password" type="password" autoComplete="new-password" placeholder={t('再次输入新密码')} value={repeated} onChange={(event) => setRepeated(event.target.value)} />
					</div>
					<DialogFooter>
						<Button type="button" variant="outline" onClick={close}>
							{t('取消')}
						</Button>
						<Button type="submit" disabled={submitting}>
							{t('确认修改')}
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
