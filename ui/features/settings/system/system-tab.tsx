import { EmailDomainSection } from '@ui/features/settings/system/email-domain-section'
import { GitHubSection } from '@ui/features/settings/system/github-section'
import { LinuxDoSection } from '@ui/features/settings/system/linuxdo-section'
import { LoginSection } from '@ui/features/settings/system/login-section'
import { PaymentSection } from '@ui/features/settings/system/payment-section'
import { PrivateUpstreamSection } from '@ui/features/settings/system/private-upstream-section'
import { ServerSection } from '@ui/features/settings/system/server-section'
import { SmtpSection } from '@ui/features/settings/system/smtp-section'
import { TelegramSection } from '@ui/features/settings/system/telegram-section'
import { TurnstileSection } from '@ui/features/settings/system/turnstile-section'
import { WeChatSection } from '@ui/features/settings/system/wechat-section'
import { WorkerSection } from '@ui/features/settings/system/worker-section'

/** The super admin's system settings (seed 000 §2). */
export function SystemTab() {
	return (
		<div className="flex flex-col gap-4" data-testid="system-tab">
			<ServerSection />
			<WorkerSection />
			<PaymentSection />
			<LoginSection />
			<EmailDomainSection />
			<SmtpSection />
			<GitHubSection />
			<WeChatSection />
			<TelegramSection />
			<TurnstileSection />
			<LinuxDoSection />
			<PrivateUpstreamSection />
		</div>
	)
}
