import { type FormEvent, useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@shared/user-constants'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Field } from '@ui/components/ui/field'
import { register } from '@ui/features/auth/api'
import { AuthCard } from '@ui/features/auth/components/auth-card'
import { EmailCodeFields } from '@ui/features/auth/components/email-code-fields'
import { ThirdPartyLogin } from '@ui/features/auth/components/third-party-login'
import { findRegisterProblem } from '@ui/features/auth/register-validation'
import { useTurnstile } from '@ui/features/auth/turnstile'
import { useAffiliateCode } from '@ui/features/auth/use-affiliate-code'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'
import { readStorage, storageKeys } from '@ui/lib/storage'
import { useFormProblem } from '@ui/lib/use-form-problem'
import { useHydrated } from '@ui/lib/use-hydrated'

export function RegisterPage() {
	const { t } = useTranslation()
	const status = useStatus()
	const navigate = useNavigate()
	const hydrated = useHydrated()
	const [email, setEmail] = useState('')
	const [submitting, setSubmitting] = useState(false)
	const affiliateCode = useAffiliateCode()
	// The link's code renders on the server; one remembered from an earlier link fills in after hydration.
	const [invitationCode, setInvitationCode] = useState(affiliateCode ?? '')
	useEffect(() => {
		if (!affiliateCode) setInvitationCode((typed) => typed || (readStorage(storageKeys.affiliateCode) ?? ''))
	}, [affiliateCode])
	const turnstile = useTurnstile()
	const problems = useFormProblem()

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const fields = {
			username: String(form.get('username') ?? '').trim(),
			password: String(form.get('password') ?? ''),
			password2: String(form.get('password2') ?? ''),
			email: email.trim(),
			verificationCode: String(form.get('verification_code') ?? '').trim(),
			invitationCode: invitationCode.trim(),
		}
		if (problems.report(findRegisterProblem(fields, { emailVerification: status.email_verification, invitationRequired: status.invitation_required }))) return
		const turnstileToken = turnstile.take()
		if (turnstileToken === null) return
		setSubmitting(true)
		const envelope = await callApi(t, register(browserApi, {
			username: fields.username,
			password: fields.password,
			password2: fields.password2,
			email: fields.email,
			verification_code: fields.verificationCode,
			aff_code: fields.invitationCode,
		}, turnstileToken), '注册成功，请登录')
		setSubmitting(false)
		if (envelope) navigate('/login')
	}

	const footer = (
		<>
			{t('已有账户？')}
			<Link to="/login" className="font-medium text-primary hover:underline">
				{t('登录')}
			</Link>
		</>
	)

	if (!status.register_enabled) {
		return (
			<AuthCard title={t('注册 {name}', { name: status.system_name })} footer={footer}>
				<p role="status" className="text-center text-sm text-muted-foreground">{t('管理员已关闭新用户注册')}</p>
			</AuthCard>
		)
	}

	return (
		<AuthCard title={t('注册 {name}', { name: status.system_name })} description={t('创建一个新账户')} footer={footer}>
			{status.password_register ? (
				<form method="post" noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
					<Field id="register-username" label="用户名" error={problems.errorOf('username')}>
						<Input
							id="register-username"
							{...problems.control('username', 'register-username')}
							name="username"
							autoComplete="username"
							maxLength={USERNAME_MAX_LENGTH}
							placeholder={t('输入用户名，最多 {max} 个字符', { max: USERNAME_MAX_LENGTH })}
						/>
					</Field>
					<Field id="register-password" label="密码" error={problems.errorOf('password')}>
						<Input
							id="register-password"
							{...problems.control('password', 'register-password')}
							name="password"
							type="password"
							autoComplete="new-password"
							maxLength={PASSWORD_MAX_LENGTH}
							placeholder={t('输入密码，长度 {min}~{max} 位', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
						/>
					</Field>
					<Field id="register-password2" label="确认密码" error={problems.errorOf('password2')}>
						<Input
							id="register-password2"
							{...problems.control('password2', 'register-password2')}
							name="password2"
							type="password"
							autoComplete="new-password"
							maxLength={PASSWORD_MAX_LENGTH}
							placeholder={t('再次输入密码')}
						/>
					</Field>
					{status.email_verification && <EmailCodeFields email={email} onEmailChange={setEmail} turnstile={turnstile} />}
					<Field id="register-aff-code" label={status.invitation_required ? '邀请码' : '邀请码（选填）'} error={problems.errorOf('invitationCode')}>
						<Input
							id="register-aff-code"
							{...problems.control('invitationCode', 'register-aff-code')}
							name="aff_code"
							autoComplete="off"
							required={status.invitation_required}
							value={invitationCode}
							onChange={(event) => setInvitationCode(event.target.value)}
							placeholder={t(status.invitation_required ? '输入邀请码（必填）' : '输入邀请码')}
						/>
					</Field>
					{turnstile.widget}
					<Button type="submit" disabled={!hydrated || submitting}>
						{submitting ? t('注册中…') : t('注册')}
					</Button>
				</form>
			) : (
				<p role="status" className="text-center text-sm text-muted-foreground">{t('管理员已关闭密码注册，请使用第三方账户注册')}</p>
			)}
			<ThirdPartyLogin />
		</AuthCard>
	)
}
