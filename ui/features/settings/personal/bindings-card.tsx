import { KeyRoundIcon, MailIcon, MessageCircleIcon, SendIcon, ShieldCheckIcon, UserRoundIcon } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { useRevalidator } from 'react-router'
import type { UserView } from '@shared/user'
import type { ServerStatus } from '@shared/status'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@ui/components/ui/card'
import { type OAuthProvider, oauthAuthorizeUrl, oidcAuthorizeUrl } from '@ui/features/auth/api'
import type { BindingProvider } from '@shared/oauth'
import { fetchBindingState, unbindProvider } from '@ui/features/settings/api'
import { EmailBindDialog } from '@ui/features/settings/personal/email-bind-dialog'
import { TelegramBind } from '@ui/features/settings/personal/telegram-bind'
import { UnbindButton } from '@ui/features/settings/personal/unbind-button'
import { WechatBindDialog } from '@ui/features/settings/personal/wechat-bind-dialog'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'

/** `unbind`: the service to offer unbinding for, when the row is bound to one. */
type BindingRowProps = { testId: string; icon: ReactNode; label: string; value: string; action: ReactNode; unbind?: BindingProvider }

function BindingRow({ testId, icon, label, value, action, unbind }: BindingRowProps) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	return (
		<li data-testid={testId} className="flex items-center gap-3 py-3">
			<span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground [&_svg]:size-4">{icon}</span>
			<div className="flex min-w-0 flex-1 flex-col">
				<span className="text-sm font-medium">{label}</span>
				<span className={value ? 'truncate text-xs' : 'text-xs text-muted-foreground'}>{value || t('未绑定')}</span>
			</div>
			<div className="flex items-center gap-1">
				{unbind && value && (
					<UnbindButton testId={`unbind-${unbind}`} label={label} unbind={() => unbindProvider(browserApi, unbind)} onUnbound={() => void revalidator.revalidate()} />
				)}
				{action}
			</div>
		</li>
	)
}

/** GitHub and LinuxDO bind through their authorisation page; the callback route sees the state and binds. */
async function startBinding(provider: OAuthProvider, status: ServerStatus, t: (key: string, values?: Record<string, string | number>) => string) {
	const envelope = await callApi(t, fetchBindingState(browserApi))
	if (!envelope) return
	if (provider === 'oidc') window.location.assign(oidcAuthorizeUrl(status, envelope.data, envelope.code_challenge))
	else window.location.assign(oauthAuthorizeUrl(provider, provider === 'github' ? status.github_client_id : status.linuxdo_client_id, envelope.data))
}

/** One row per sign-in method; a method the server has not switched on cannot be bound. */
export function BindingsCard({ user }: { user: UserView }) {
	const { t } = useTranslation()
	const status = useStatus()
	const [emailOpen, setEmailOpen] = useState(false)
	const [wechatOpen, setWechatOpen] = useState(false)
	return (
		<Card data-testid="bindings-card">
			<CardHeader>
				<CardTitle className="text-base">{t('账户绑定')}</CardTitle>
			</CardHeader>
			<CardContent>
				<ul className="divide-y">
					<BindingRow
						testId="binding-email"
						icon={<MailIcon />}
						label={t('邮箱')}
						value={user.email}
						action={<Button size="sm" variant="outline" onClick={() => setEmailOpen(true)}>{user.email ? t('修改绑定') : t('绑定')}</Button>}
					/>
					<BindingRow
						testId="binding-wechat"
						unbind="wechat"
						icon={<MessageCircleIcon />}
						label={t('微信')}
						value={user.wechat_id}
						action={(
							<Button size="sm" variant="outline" disabled={!status.wechat_login} onClick={() => setWechatOpen(true)}>
								{user.wechat_id ? t('修改绑定') : t('绑定')}
							</Button>
						)}
					/>
					<BindingRow
						testId="binding-github"
						unbind="github"
						icon={<UserRoundIcon />}
						label="GitHub"
						value={user.github_id}
						action={(
							<Button size="sm" variant="outline" disabled={!status.github_oauth || Boolean(user.github_id)} onClick={() => startBinding('github', status, t)}>
								{user.github_id ? t('已绑定') : t('绑定')}
							</Button>
						)}
					/>
					<BindingRow
						testId="binding-telegram"
						unbind="telegram"
						icon={<SendIcon />}
						label="Telegram"
						value={user.telegram_id}
						action={<TelegramBind bound={Boolean(user.telegram_id)} />}
					/>
					<BindingRow
						testId="binding-linuxdo"
						unbind="linuxdo"
						icon={<ShieldCheckIcon />}
						label="LinuxDO"
						value={user.linux_do_id}
						action={(
							<Button size="sm" variant="outline" disabled={!status.linuxdo_oauth || Boolean(user.linux_do_id)} onClick={() => startBinding('linuxdo', status, t)}>
								{user.linux_do_id ? t('已绑定') : t('绑定')}
							</Button>
						)}
					/>
					<BindingRow
						testId="binding-oidc"
						unbind="oidc"
						icon={<KeyRoundIcon />}
						label="OIDC"
						value={user.oidc_id}
						action={(
							<Button size="sm" variant="outline" disabled={!status.oidc_enabled || Boolean(user.oidc_id)} onClick={() => startBinding('oidc', status, t)}>
								{user.oidc_id ? t('已绑定') : t('绑定')}
							</Button>
						)}
					/>
				</ul>
			</CardContent>
			<EmailBindDialog open={emailOpen} onOpenChange={setEmailOpen} currentEmail={user.email} />
			{status.wechat_login && <WechatBindDialog open={wechatOpen} onOpenChange={setWechatOpen} qrcode={status.wechat_qrcode} />}
		</Card>
	)
}
