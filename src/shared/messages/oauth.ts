/** What sign-in and binding through another service answer when they say no (docs/specification/accounts-and-settings.md#other-services-github-linuxdo-wechat-telegram). */
import { sourceTexts } from './define'

export const OAUTH_MESSAGE_ENTRIES = {
	disabled: ['管理员未开启 {provider} 登录', 'administrator has not enabled {provider} login'],
	notConfigured: ['{provider} 登录未配置，请联系管理员', '{provider} login is not configured, please contact the administrator'],
	alreadyBound: ['该 {provider} 账户已被绑定', 'this {provider} account is already bound'],
	unbound: ['已解除绑定', 'unbound'],
	unknownProvider: ['未知的登录方式', 'unknown sign-in method'],
	notBound: ['尚未绑定 {provider} 账户', 'no {provider} account is bound'],
	lastSignIn: ['{provider} 是该账户唯一的登录方式，请先设置密码或绑定其他登录方式', '{provider} is the only way to sign in to this account; set a password or bind another sign-in method first'],
	unreachable: ['无法连接 {provider}，请稍后再试', 'could not reach {provider}, please try again later'],
	unreadable: ['{provider} 返回了意外的应答，请稍后再试', '{provider} gave an unexpected answer, please try again later'],
	codeRejected: ['{provider} 未接受授权，请重试', '{provider} did not accept the authorization, please try again'],
	banned: ['用户已被封禁', 'the user has been banned'],
	codeMissing: ['缺少授权码', 'the authorization code is missing'],
	stateInvalid: ['授权状态无效或已过期，请重新开始', 'the authorization state is invalid or expired, please start again'],
	usernameUnavailable: ['无法为新账户选定用户名，请重试', 'could not pick a username for the new account, please try again'],
	oidcNoSubject: ['OIDC 用户信息缺少 sub 字段', 'the OIDC user info has no sub claim'],
	linuxdoInactive: ['该 LinuxDO 账户未激活', 'this LinuxDO account is not active'],
	telegramInvalid: ['Telegram 登录数据无效', 'the Telegram login data is invalid'],
	telegramExpired: ['Telegram 登录数据已过期，请重新登录', 'the Telegram login data has expired, please log in again'],
	telegramUsed: ['Telegram 登录数据已被使用，请重新登录', 'the Telegram login data has already been used, please log in again'],
	weChatRefused: ['微信登录失败', 'WeChat login failed'],
	/** The WeChat server's own refusal, in its own words. */
	weChatAnswered: ['微信登录失败：{reason}', 'WeChat login failed: {reason}'],
} as const

/** Not a sentence: the peers' clients read `message: "bind"` as "the account was bound" (docs/specification/accounts-and-settings.md#other-services-github-linuxdo-wechat-telegram). */
export const OAUTH_BOUND_MARKER = 'bind'

export const OAUTH_MESSAGES = { .../* @__PURE__ */ sourceTexts(OAUTH_MESSAGE_ENTRIES), bound: OAUTH_BOUND_MARKER } as const
