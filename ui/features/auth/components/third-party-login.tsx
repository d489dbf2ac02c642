import { KeyRoundIcon, MessageCircleIcon, SendIcon, ShieldCheckIcon, UserRoundIcon } from 'lucide-react'
import { useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { toast } from '@ui/components/ui/toaster'
import { fetchOAuthState, type OAuthProvider, oauthAuthorizeUrl, oidcAuthorizeUrl, telegramLogin } from '@ui/features/auth/api'
import { WechatLoginDialog } from '@ui/features/auth/components/wechat-login-dialog'
import { mountTelegramWidget } from '@ui/features/auth/telegram-widget'
import { useSignIn } from '@ui/features/auth/use-sign-in'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'
import type { StoredUser } from '@ui/lib/storage'

/**
 * Only the providers that /api/status switches on are offered; nothing third-party loads before a click.
 * A sign-in here goes to the home page.
 */
export function ThirdPartyLogin() {
	const { t } = useTranslation()
	const status = useStatus()
	const navigate = useNavigate()
	const signIn = useSignIn()
	const [wechatOpen, setWechatOpen] = useState(false)
	const telegramContainer = useRef<HTMLDivElement>(null)
	if (!status.github_oauth && !status.linuxdo_oauth && !status.oidc_enabled && !status.wechat_login && !status.telegram_oauth) return null

	function finishLogin(user: StoredUser) {
		signIn(user)
		toast.success(t('登录成功'))
		navigate('/')
	}

	async function startOAuth(provider: Exclude<OAuthProvider, 'oidc'>, clientId: string) {
		const envelope = await callApi(t, fetchOAuthState(browserApi))
		if (envelope) window.location.assign(oauthAuthorizeUrl(provider, clientId, envelope.data))
	}

	async function startOidc() {
		const envelope = await callApi(t, fetchOAuthState(browserApi))
		if (envelope) window.location.assign(oidcAuthorizeUrl(status, envelope.data, envelope.code_challenge))
	}

	function loadTelegramWidget() {
		mountTelegramWidget(telegramContainer.current, status.telegram_bot_name, 'large', async (fields) => {
			const envelope = await callApi(t, telegramLogin(browserApi, fields))
			if (envelope) finishLogin(envelope.data)
		})
	}

	return (
		<div className="flex flex-col gap-3">
			<p className="text-center text-xs text-muted-foreground">{t('其他登录方式')}</p>
			<div className="flex flex-wrap justify-center gap-2">
				{status.github_oauth && (
					<Button variant="outline" onClick={() => startOAuth('github', status.github_client_id)}>
						<UserRoundIcon />
						GitHub
					</Button>
				)}
				{status.linuxdo_oauth && (
					<Button variant="outline" onClick={() => startOAuth('linuxdo', status.linuxdo_client_id)}>
						<ShieldCheckIcon />
						LinuxDO
					</Button>
				)}
				{status.oidc_enabled && (
					<Button variant="outline" data-testid="oidc-login" onClick={startOidc}>
						<KeyRoundIcon />
						{t('使用 OIDC 登录')}
					</Button>
				)}
				{status.wechat_login && (
					<Button variant="outline" onClick={() => setWechatOpen(true)}>
						<MessageCircleIcon />
						{t('微信')}
					</Button>
				)}
				{status.telegram_oauth && (
					<Button variant="outline" onClick={loadTelegramWidget}>
						<SendIcon />
						Telegram
					</Button>
				)}
			</div>
			<div ref={telegramContainer} className="flex justify-center empty:hidden" />
			{status.wechat_login && (
				<WechatLoginDialog open={wechatOpen} onOpenChange={setWechatOpen} qrcode={status.wechat_qrcode} onLoggedIn={finishLogin} />
			)}
		</div>
	)
}
