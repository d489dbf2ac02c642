import { type NavSection, SectionNav } from '@ui/features/settings/operation/section-nav'
import { EmailDomainSection } from '@ui/features/settings/system/email-domain-section'
import { GitHubSection } from '@ui/features/settings/system/github-section'
import { LinuxDoSection } from '@ui/features/settings/system/linuxdo-section'
import { OidcSection } from '@ui/features/settings/system/oidc-section'
import { LoginSection } from '@ui/features/settings/system/login-section'
import { PaymentSection } from '@ui/features/settings/system/payment-section'
import { RegisterLimitSection } from '@ui/features/settings/system/register-limit-section'
import { PrivateUpstreamSection } from '@ui/features/settings/system/private-upstream-section'
import { ServerSection } from '@ui/features/settings/system/server-section'
import { SmtpSection } from '@ui/features/settings/system/smtp-section'
import { TelegramSection } from '@ui/features/settings/system/telegram-section'
import { TurnstileSection } from '@ui/features/settings/system/turnstile-section'
import { WeChatSection } from '@ui/features/settings/system/wechat-section'
import { WorkerSection } from '@ui/features/settings/system/worker-section'

/** The sections in page order: their SectionCard ids and titles. */
const SECTIONS: readonly NavSection[] = [
	{ id: 'server', title: '通用设置' },
	{ id: 'worker', title: '代理设置' },
	{ id: 'payment', title: '支付设置' },
	{ id: 'login', title: '配置登录注册' },
	{ id: 'register-limit', title: '注册频率限制' },
	{ id: 'email-domain', title: '配置邮箱域名白名单' },
	{ id: 'smtp', title: '配置 SMTP' },
	{ id: 'github', title: '配置 GitHub OAuth App' },
	{ id: 'wechat', title: '配置微信服务器' },
	{ id: 'telegram', title: '配置 Telegram 登录' },
	{ id: 'turnstile', title: '配置 Turnstile' },
	{ id: 'linuxdo', title: '配置 LinuxDO OAuth' },
	{ id: 'oidc', title: '配置 OIDC' },
	{ id: 'private-upstream', title: '私有网络上游' },
]

/** The super admin's system settings (docs/specification/accounts-and-settings.md#options), with the section list the operation tab has. */
export function SystemTab() {
	return (
		<div className="flex flex-col gap-4 lg:grid lg:grid-cols-[11rem_minmax(0,1fr)] lg:items-start lg:gap-6" data-testid="system-tab">
			<SectionNav sections={SECTIONS} label="系统设置导航" />
			<div className="flex min-w-0 flex-col gap-4">
				<ServerSection />
				<WorkerSection />
				<PaymentSection />
				<LoginSection />
				<RegisterLimitSection />
				<EmailDomainSection />
				<SmtpSection />
				<GitHubSection />
				<WeChatSection />
				<TelegramSection />
				<TurnstileSection />
				<LinuxDoSection />
				<OidcSection />
				<PrivateUpstreamSection />
			</div>
		</div>
	)
}
