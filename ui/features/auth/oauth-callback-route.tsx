import { LoaderCircleIcon } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { toast } from '@ui/components/ui/toaster'
import { completeOAuth, oauthBoundMessage, type OAuthProvider, oauthProviders } from '@ui/features/auth/api'
import { AuthCard } from '@ui/features/auth/components/auth-card'
import { useSignIn } from '@ui/features/auth/use-sign-in'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

function providerOf(pathname: string): OAuthProvider {
	return oauthProviders.find((provider) => pathname.endsWith(`/${provider}`)) ?? 'github'
}

/**
 * /oauth/github, /oauth/linuxdo and /oauth/oidc: the provider sends the browser back here with code and state.
 * The call runs once, in the browser (the state is good once): `bind` goes to /setting, a sign-in
 * to /token, and a failure shows its message and goes to /setting (docs/specification/accounts-and-settings.md#other-services-github-linuxdo-wechat-telegram).
 */
export function Component() {
	const { t } = useTranslation()
	const navigate = useNavigate()
	const signIn = useSignIn()
	const { pathname, search } = useLocation()
	const started = useRef(false)

	useEffect(() => {
		if (started.current) return
		started.current = true
		const query = new URLSearchParams(search)
		const call = completeOAuth(browserApi, providerOf(pathname), query.get('code') ?? '', query.get('state') ?? '')
		void callApi(t, call).then((envelope) => {
			if (!envelope) {
				navigate('/setting', { replace: true })
				return
			}
			if (envelope.message === oauthBoundMessage || !envelope.data) {
				toast.success(t('绑定成功'))
				navigate('/setting', { replace: true })
				return
			}
			signIn(envelope.data)
			toast.success(t('登录成功'))
			navigate('/token', { replace: true })
		})
	}, [navigate, pathname, search, signIn, t])

	return (
		<AuthCard title={t('正在处理授权…')}>
			<div role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
				<LoaderCircleIcon className="size-5 animate-spin" />
				{t('请稍候，正在与服务器确认授权')}
			</div>
		</AuthCard>
	)
}
