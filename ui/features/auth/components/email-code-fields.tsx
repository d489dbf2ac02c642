import { useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { sendRegistrationCode } from '@ui/features/auth/api'
import { registerMessages } from '@ui/features/auth/register-validation'
import type { Turnstile } from '@ui/features/auth/turnstile'
import { useCountdown } from '@ui/features/auth/use-countdown'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useHydrated } from '@ui/lib/use-hydrated'

/** `turnstile` is the form's widget: sending a code takes a token from it as registering does. */
type EmailCodeFieldsProps = { email: string; onEmailChange: (email: string) => void; turnstile: Turnstile }

/** Email and its verification code for registration; the send button rests with a countdown after a mail. */
export function EmailCodeFields({ email, onEmailChange, turnstile }: EmailCodeFieldsProps) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const countdown = useCountdown()
	const [sending, setSending] = useState(false)

	async function sendCode() {
		const address = email.trim()
		if (!address) {
			toast.error(t(registerMessages.emailRequired))
			return
		}
		const turnstileToken = turnstile.take()
		if (turnstileToken === null) return
		setSending(true)
		const envelope = await callApi(t, sendRegistrationCode(browserApi, address, turnstileToken), '验证码已发送，请检查邮箱')
		setSending(false)
		if (envelope) countdown.start()
	}

	return (
		<>
			<div className="flex flex-col gap-2">
				<Label htmlFor="register-email">{t('邮箱')}</Label>
				<div className="flex gap-2">
					<Input
						id="register-email"
						name="email"
						type="email"
						autoComplete="email"
						placeholder={t('输入邮箱地址')}
						value={email}
						onChange={(event) => onEmailChange(event.target.value)}
					/>
					<Button type="button" variant="outline" disabled={!hydrated || sending || countdown.running} onClick={sendCode}>
						{countdown.running ? t('重新发送 ({seconds})', { seconds: countdown.remaining }) : t('获取验证码')}
					</Button>
				</div>
			</div>
			<div className="flex flex-col gap-2">
				<Label htmlFor="register-code">{t('验证码')}</Label>
				<Input id="register-code" name="verification_code" autoComplete="one-time-code" placeholder={t('输入验证码')} />
			</div>
		</>
	)
}
