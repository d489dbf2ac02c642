import { MessageCircleIcon, SendIcon, ShieldCheckIcon, UserRoundIcon } from 'lucide-react'
import { useRef, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { toast } from '@ui/components/ui/toaster'
import { fetchOAuthState, oauthAuthorizeUrl, telegramLogin } from '@ui/features/auth/api'
import { WechatLoginDialog } from '@ui/features/auth/components/wechat-login-dialog'
import { useTranslation } from '@ui/i18n'
import { describeError } from '@ui/lib/api'
import { browserApi } from '@ui/lib/browser-api'
import type { Status } from '@ui/lib/status'
import type { StoredUser } from '@ui/lib/storage'

type ThirdPartyLoginProps = { status: Status; onLoggedIn: (user: StoredUser) => void }

/** Only the providers that /api/status switches on are offered; nothing third-party loads before a click. */
export function ThirdPartyLogin({ status, onLoggedIn }: ThirdPartyLoginProps) {
	const { t } = useTranslation()
	const [wechatOpen, setWechatOpen] = useState(false)
	const telegramContainer = useRef<HTMLDivElement>(null)
	if (!status.github_oauth && !status.linuxdo_oauth && !status.wechat_login && !status.telegram_oauth) return null

	async function startOAuth(provider: 'github' | 'linuxdo', clientId: string) {
		try {
			const envelope = await fetchOAuthState(browserApi)
			if (envelope.success) window.location.assign(oauthAuthorizeUrl(provider, clientId, envelope.data))
			else toast.error(envelope.message)
		} catch (error) {
			toast.error(describeError(error, t))
		}
	}

	function loadTelegramWidget() {
		const container = telegramContainer.current
		if (!container || container.childElementCount > 0) return
		window.onTelegramAuth = async (fields) => {
			try {
				const envelope = await telegramLogin(browserApi, fields)
				if (envelope.success) onLoggedIn(envelope.data)
				else toast.error(envelope.message)
			} catch (error) {
				toast.error(describeError(error, t))
			}
		}
		const script = document.createElement('script')
		script.async = true
		script.src = 'https://telegram.org/js/telegram-widget.js?22'
		script.dataset.telegramLogin = status.telegram_bot_name
		script.dataset.size = 'large'
		script.dataset.onauth = 'onTelegramAuth(user)'
		container.append(script)
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
				<WechatLoginDialog open={wechatOpen} onOpenChange={setWechatOpen} qrcode={status.wechat_qrcode} onLoggedIn={onLoggedIn} />
			)}
		</div>
	)
}
