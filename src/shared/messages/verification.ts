/** What the verification, reset and email-binding calls, the Turnstile check and the mailer answer. */
import { sourceTexts } from './define'

export const VERIFICATION_MESSAGE_ENTRIES = {
	emailRequired: ['请输入邮箱地址', 'please enter an email address'],
	emailInvalid: ['邮箱地址无效', 'invalid email address'],
	emailDomainNotAllowed: ['管理员启用了邮箱域名白名单，该邮箱域名不在白名单中', 'the administrator has enabled the email domain whitelist, and this email domain is not on it'],
	emailAliasNotAllowed: ['管理员不允许使用邮箱别名：请使用不含“+”的地址（Gmail 还需去掉点号）', 'the administrator does not allow email aliases; use the address without "+" (and, for Gmail, without dots)'],
	emailInUse: ['邮箱地址已被占用', 'email already in use'],
	emailNotRegistered: ['该邮箱地址未注册', 'email not registered'],
	emailAndCodeRequired: ['邮箱地址和验证码都不能为空', 'email and code are both required'],
	resetLinkInvalid: ['重置链接无效或已过期', 'reset link invalid or expired'],
	serverAddressMissing: ['管理员未设置服务器地址，无法发送重置链接', 'the administrator has not set the server address, so no reset link can be sent'],
	codeSent: ['验证码已发送', 'the verification code has been sent'],
	resetMailSent: ['重置邮件已发送', 'the reset email has been sent'],
} as const

export const VERIFICATION_MESSAGES = /* @__PURE__ */ sourceTexts(VERIFICATION_MESSAGE_ENTRIES)

export const TURNSTILE_MESSAGE_ENTRIES = {
	missing: ['请几秒后重试，Turnstile 检查正在进行', 'Turnstile check is enabled: retry in a few seconds, the check is running'],
	failed: ['Turnstile 校验失败，请刷新重试', 'Turnstile check failed, please refresh and retry'],
} as const

export const TURNSTILE_MESSAGES = /* @__PURE__ */ sourceTexts(TURNSTILE_MESSAGE_ENTRIES)

export const MAILER_MESSAGE_ENTRIES = {
	notConfigured: ['SMTP 未配置', 'SMTP is not configured'],
	sendFailed: ['邮件发送失败，请稍后再试', 'failed to send the email, please try again later'],
} as const

export const MAILER_MESSAGES = /* @__PURE__ */ sourceTexts(MAILER_MESSAGE_ENTRIES)
