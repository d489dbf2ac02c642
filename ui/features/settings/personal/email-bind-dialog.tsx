import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { useTurnstile } from '@ui/features/auth/turnstile'
import { useCountdown } from '@ui/features/auth/use-countdown'
import { bindEmail, sendBindingCode } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { CancelOrSubmit, PersonalDialog, useDialogCall } from './personal-dialog'

type EmailBindDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; currentEmail: string }

export function EmailBindDialog({ open, onOpenChange, currentEmail }: EmailBindDialogProps) {
	const { t } = useTranslation()
	const turnstile = useTurnstile()
	const [email, setEmail] = useState(currentEmail)
	const [code, setCode] = useState('')
	const [sending, setSending] = useState(false)
	const { submitting, run } = useDialogCall(onOpenChange)
	const { remaining: countdown, start: startCountdown } = useCountdown()

	async function sendCode() {
		if (!email.trim()) {
			toast.error(t('请输入邮箱'))
			return
		}
		const turnstileToken = turnstile.take()
		if (turnstileToken === null) return
		setSending(true)
		const envelope = await callApi(t, sendBindingCode(browserApi, email.trim(), turnstileToken), '验证码发送成功，请检查邮箱')
		setSending(false)
		if (envelope) startCountdown()
	}

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (!email.trim() || !code.trim()) {
			toast.error(t('邮箱和验证码都不能为空'))
			return
		}
		if (await run(bindEmail(browserApi, email.trim(), code.trim()), '邮箱绑定成功')) setCode('')
	}

	return (
		<PersonalDialog open={open} onOpenChange={onOpenChange} title={t('绑定邮箱')} description={t('验证码将发送到该邮箱，3 分钟内有效。')}>
			<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
				<div className="flex flex-col gap-2">
					<Label htmlFor="bind-email">{t('邮箱')}</Label>
					<div className="flex gap-2">
						<Input id="bind-email" type="email" autoComplete="email" placeholder={t('请输入邮箱')} value={email} onChange={(event) => setEmail(event.target.value)} />
						<Button type="button" variant="outline" disabled={sending || countdown > 0} onClick={sendCode}>
							{countdown > 0 ? t('重新发送 ({seconds})', { seconds: countdown }) : t('获取验证码')}
						</Button>
					</div>
				</div>
				<div className="flex flex-col gap-2">
					<Label htmlFor="bind-email-code">{t('验证码')}</Label>
					<Input id="bind-email-code" autoComplete="one-time-code" placeholder={t('请输入验证码')} value={code} onChange={(event) => setCode(event.target.value)} />
				</div>
				{turnstile.widget}
				<CancelOrSubmit onCancel={() => onOpenChange(false)} submitting={submitting} label={t('绑定')} />
			</form>
		</PersonalDialog>
	)
}
