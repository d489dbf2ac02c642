import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { sendResetMail } from '@ui/features/auth/api'
import { AuthCard } from '@ui/features/auth/components/auth-card'
import { registerMessages } from '@ui/features/auth/register-validation'
import { useTurnstile } from '@ui/features/auth/turnstile'
import { useCountdown } from '@ui/features/auth/use-countdown'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useHydrated } from '@ui/lib/use-hydrated'

/** /reset: asks for a reset mail; the button rests with a countdown after one is sent. */
export function Component() {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const countdown = useCountdown()
	const [sending, setSending] = useState(false)
	const turnstile = useTurnstile()

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (countdown.running) return
		const email = String(new FormData(event.currentTarget).get('email') ?? '').trim()
		if (!email) {
			toast.error(t(registerMessages.emailRequired))
			return
		}
		const turnstileToken = turnstile.take()
		if (turnstileToken === null) return
		setSending(true)
		const envelope = await callApi(t, sendResetMail(browserApi, email, turnstileToken), '重置邮件发送成功，请检查邮箱')
		setSending(false)
		if (envelope) countdown.start()
	}

	return (
		<AuthCard
			title={t('重置密码')}
			description={t('输入账户绑定的邮箱，我们会发送一封重置密码的邮件')}
			footer={
				<Link to="/login" className="font-medium text-primary hover:underline">
					{t('返回登录')}
				</Link>
			}
		>
			<form method="post" noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
				<div className="flex flex-col gap-2">
					<Label htmlFor="reset-email">{t('邮箱')}</Label>
					<Input id="reset-email" name="email" type="email" autoComplete="email" placeholder={t('输入邮箱地址')} />
				</div>
				{turnstile.widget}
				<Button type="submit" disabled={!hydrated || sending || countdown.running}>
					{countdown.running ? t('重试 ({seconds})', { seconds: countdown.remaining }) : t('发送重置邮件')}
				</Button>
			</form>
		</AuthCard>
	)
}
