/** What the account, sign-in and user administration calls answer (docs/specification/accounts-and-settings.md). */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '../user-constants'
import { sourceTexts } from './define'

export const USER_MESSAGE_ENTRIES = {
	loginRequired: ['请输入用户名和密码', 'please enter username and password'],
	registerRequired: ['用户名和密码不能为空', 'username and password cannot be empty'],
	passwordTooShort: [`密码长度不得小于 ${PASSWORD_MIN_LENGTH} 位`, `password length must not be less than ${PASSWORD_MIN_LENGTH}`],
	passwordTooLong: [`密码长度不得超过 ${PASSWORD_MAX_LENGTH} 位`, `password length must not be more than ${PASSWORD_MAX_LENGTH}`],
	usernameTooLong: [`用户名不能超过 ${USERNAME_MAX_LENGTH} 个字符`, `username must not be longer than ${USERNAME_MAX_LENGTH} characters`],
	passwordsDiffer: ['两次输入的密码不一致', 'the two passwords differ'],
	usernameTaken: ['用户名已存在', 'username already exists'],
	wrongCredentials: ['用户名或密码错误，或用户已被封禁', 'username or password is wrong, or the user has been banned'],
	passwordLoginDisabled: ['管理员已关闭密码登录', 'password login has been disabled by the administrator'],
	registerDisabled: ['管理员已关闭新用户注册', 'new user registration has been disabled by the administrator'],
	passwordRegisterDisabled: ['管理员已关闭密码注册，请使用第三方账户注册', 'password registration has been disabled by the administrator, please use a third-party account'],
	userNotFound: ['用户不存在', 'user does not exist'],
	equalOrHigherRole: ['无法获取、更新或删除同级或更高级别的用户', 'cannot get, update or delete users of the same or higher level'],
	createEqualOrHigherRole: ['无法创建权限大于等于自己的用户', 'cannot create users of equal or higher permission'],
	adminCannotPromote: ['普通管理员不能将用户提升为管理员', 'a regular admin cannot promote to admin'],
	demoSiteRootLocked: ['演示站点模式下不能修改超级管理员的用户名和密码', 'on a demo site the super admin\'s username and password cannot be changed'],
	rootProtected: ['无法禁用、删除或降级超级管理员', 'the super admin cannot be disabled, deleted or demoted'],
	alreadyAdmin: ['该用户已经是管理员', 'the user is already an admin'],
	alreadyUser: ['该用户已经是普通用户', 'the user is already an ordinary user'],
	enableBlocked: ['该用户已被封禁，无法启用', 'this user is blocked and cannot be enabled'],
	deleteConfirm: ['请输入你的账户名以确认删除', 'enter your account name to confirm deletion'],
	transferMinimum: ['划转金额最低为 {minimum}', 'transfer amount minimum is {minimum}'],
	transferInsufficient: ['邀请额度不足', 'insufficient invitation income'],
	defaultPassword: ['你正在使用默认密码，请立即修改', 'you are using the default password, please change it immediately'],
	invalidAffCode: ['邀请码无效', 'invalid invitation code'],
	invitationRequired: ['管理员要求凭邀请码注册，请填写邀请码', 'registration needs an invitation code, please enter one'],
	registerAddressLimit: ['该网络地址注册的新账户已达上限，请稍后再试', 'too many new accounts from this network address, try again later'],
	emailVerificationRequired: ['管理员开启了邮箱验证，请输入邮箱地址和验证码', 'email verification is enabled, please enter the email address and verification code'],
	verificationCodeWrong: ['验证码错误或已过期', 'verification code wrong or expired'],
	unknownAction: ['未知的操作', 'unknown action'],
	quotaNegative: ['剩余额度不能为负数', 'the remaining quota cannot be negative'],
	registered: ['注册成功', 'registered'],
	transferred: ['划转成功', 'transferred'],
} as const

export const USER_MESSAGES = /* @__PURE__ */ sourceTexts(USER_MESSAGE_ENTRIES)
