import { type FormEvent, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { FieldMessage } from '@ui/components/ui/field'
import { toast } from '@ui/components/ui/toaster'
import { login } from '@ui/features/auth/api'
import { AuthCard } from '@ui/features/auth/components/auth-card'
import { PasswordChangeDialog } from '@ui/features/auth/components/password-change-dialog'
import { ThirdPartyLogin } from '@ui/features/auth/components/third-party-login'
import { useTurnstile } from '@ui/features/auth/turnstile'
import { useAffiliateCode } from '@ui/features/auth/use-affiliate-code'
import { useSignIn } from '@ui/features/auth/use-sign-in'
import { useTranslation } from '@ui/i18n'
import { apiMessages } from '@ui/lib/api'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'
import { ROLE } from '@shared/user'
import { useFormProblem } from '@ui/lib/use-form-problem'
import { useHydrated } from '@ui/lib/use-hydrated'
import { emptyFields } from '@ui/features/auth/register-validation'

export function LoginPage() {
	const { t } = useTranslation()
	const status = useStatus()
	const navigate = useNavigate()
	const signIn = useSignIn()
	const [searchParameters] = useSearchParams()
	const hydrated = useHydrated()
	const [submitting, setSubmitting] = useState(false)
	const [passwordChangeRequired, setPasswordChangeRequired] = useState(false)
	const expired = searchParameters.get('expired') === 'true'
	const turnstile = useTurnstile()
	const problems = useFormProblem()
	useAffiliateCode()

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const username = String(form.get('username') ?? '').trim()
		const password = String(form.get('password') ?? '')
		if (problems.report(!username || !password ? { message: '请输入用户名和密码', fields: emptyFields({ username, password }) } : undefined)) return
		const turnstileToken = turnstile.take()
		if (turnstileToken === null) return
		setSubmitting(true)
		const envelope = await callApi(t, login(browserApi, { username, password }, turnstileToken))
		setSubmitting(false)
		if (!envelope) return
		signIn(envelope.data)
		// A demo site keeps the super admin's published password (the server refuses to change it).
		const demoRoot = status.demo_site_enabled && envelope.data.role >= ROLE.root
		if (envelope.data.password_change_required && !demoRoot) {
			setPasswordChangeRequired(true)
			return
		}
		toast.success(t('登录成功'))
		navigate('/token')
	}

	const footer = (
		<>
			{t('还没有账户？')}
			<Link to="/register" className="font-medium text-primary hover:underline">
				{t('注册')}
			</Link>
		</>
	)

	return (
		<AuthCard title={t('登录 {name}', { name: status.system_name })} description={t('使用用户名和密码登录')} footer={footer}>
			{expired && (
				<p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
					{t(apiMessages.unauthorized)}
				</p>
			)}
			{/* method=post keeps the password out of the address bar if someone submits before the script runs */}
			<form method="post" noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
				<div className="flex flex-col gap-2">
					<Label htmlFor="login-username">{t('用户名')}</Label>
					<Input id="login-username" name="username" autoComplete="username" placeholder={t('用户名或邮箱')} {...problems.control('username', 'login-username')} />
					<FieldMessage id="login-username" error={problems.errorOf('username')} />
				</div>
				<div className="flex flex-col gap-2">
					<div className="flex items-center justify-between">
						<Label htmlFor="login-password">{t('密码')}</Label>
						<Link to="/reset" className="text-xs text-muted-foreground hover:text-foreground hover:underline">
							{t('忘记密码？')}
						</Link>
					</div>
					<Input id="login-password" name="password" type="password" autoComplete="current-password" placeholder={t('请输入密码')} {...problems.control('password', 'login-password')} />
					<FieldMessage id="login-password" error={problems.errorOf('password')} />
				</div>
				{turnstile.widget}
				<Button type="submit" disabled={!hydrated || submitting}>
					{submitting ? t('登录中…') : t('登录')}
				</Button>
			</form>
			<ThirdPartyLogin />
			<PasswordChangeDialog open={passwordChangeRequired} />
		</AuthCard>
	)
}
