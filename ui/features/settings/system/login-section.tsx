import { SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { OptionToggle } from '@ui/features/settings/system/option-toggle'

const PASSWORD_LOGIN_OFF = {
	title: '确定关闭密码登录？',
	description: '关闭后，所有没有绑定其他登录方式的用户（包括管理员）都将无法再登录。',
}

/** Sign-in and registration switches, each saved when flipped. */
export function LoginSection() {
	return (
		<SectionCard id="login" title="配置登录注册" description="开关即时生效">
			<SwitchRow>
				<OptionToggle name="PasswordLoginEnabled" label="允许通过密码进行登录" confirmOff={PASSWORD_LOGIN_OFF} />
				<OptionToggle name="PasswordRegisterEnabled" label="允许通过密码进行注册" />
				<OptionToggle name="EmailVerificationEnabled" label="通过密码注册时需要进行邮箱验证" />
				<OptionToggle name="GitHubOAuthEnabled" label="允许通过 GitHub 账户登录和注册" />
				<OptionToggle name="LinuxDOOAuthEnabled" label="允许通过 LinuxDO 账户登录和注册" />
				<OptionToggle name="oidc.enabled" label="允许通过 OIDC 登录和注册" />
				<OptionToggle name="WeChatAuthEnabled" label="允许通过微信登录和注册" />
				<OptionToggle name="TelegramOAuthEnabled" label="允许通过 Telegram 登录和注册" />
				<OptionToggle name="RegisterEnabled" label="允许新用户注册" />
				<OptionToggle name="RegisterInvitationRequired" label="注册需要邀请码（含第三方账户注册）" />
				<OptionToggle name="TurnstileCheckEnabled" label="启用 Turnstile 用户校验" />
			</SwitchRow>
		</SectionCard>
	)
}
