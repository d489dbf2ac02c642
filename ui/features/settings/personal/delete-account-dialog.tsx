import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { deleteOwnAccount } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useSession } from '@ui/lib/session'

type DeleteAccountDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; username: string }

/** Deleting is irreversible, so the user types their own account name to confirm it. */
export function DeleteAccountDialog({ open, onOpenChange, username }: DeleteAccountDialogProps) {
	const { t } = useTranslation()
	const navigate = useNavigate()
	const session = useSession()
	const [typed, setTyped] = useState('')
	const [submitting, setSubmitting] = useState(false)

	function close() {
		setTyped('')
		onOpenChange(false)
	}

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (typed !== username) {
			toast.error(t('请输入你的账户名以确认删除'))
			return
		}
		setSubmitting(true)
		const envelope = await callApi(t, deleteOwnAccount(browserApi, typed), '账户已删除')
		setSubmitting(false)
		if (!envelope) return
		session.setUser(null)
		await navigate('/login')
	}

	return (
		<Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('删除个人账户')}</DialogTitle>
					<DialogDescription>{t('删除后账户及其余额无法恢复。请输入你的账户名 {username} 以确认。', { username })}</DialogDescription>
				</DialogHeader>
				<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
					<div className="flex flex-col gap-2">
						<Label htmlFor="delete-confirmation">{t('账户名')}</Label>
						<Input id="delete-confirmation" autoComplete="off" placeholder={username} value={typed} onChange={(event) => setTyped(event.target.value)} />
					</div>
					<DialogFooter>
						<Button type="button" variant="outline" onClick={close}>
							{t('取消')}
						</Button>
						<Button type="submit" variant="destructive" disabled={submitting}>
							{t('确认删除')}
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
