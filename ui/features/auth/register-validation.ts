import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@shared/user-constants'

/** Registration's checks (username up to 12, password 8–20; docs/specification/accounts-and-settings.md#registration); zh source strings. */
export const registerMessages = {
	required: '用户名和密码不能为空',
	usernameTooLong: '用户名不能超过 {max} 个字符',
	passwordTooShort: '密码长度不得小于 {min} 位',
	passwordTooLong: '密码长度不得超过 {max} 位',
	passwordsDiffer: '两次输入的密码不一致',
	emailRequired: '请输入邮箱地址',
	emailAndCodeRequired: '请输入邮箱地址和验证码',
	invitationCodeRequired: '请输入邀请码',
} as const

type RegisterFields = { username: string; password: string; password2: string; email: string; verificationCode: string; invitationCode: string }
/** The server's sign-up switches the form follows (`/api/status`). */
type RegisterRules = { emailVerification: boolean; invitationRequired: boolean }
/** `fields` names the fields at fault, by their names in RegisterFields. */
export type RegisterProblem = { message: string; values?: Record<string, number>; fields?: readonly string[] }

/** The names of the fields left empty. */
export const emptyFields = (fields: Record<string, string>) => Object.keys(fields).filter((name) => !fields[name])

/** The length rules of a new password, shared by registration, the password dialog and the user drawers. */
export function findPasswordProblem(password: string): RegisterProblem | undefined {
	if (password.length < PASSWORD_MIN_LENGTH) return { message: registerMessages.passwordTooShort, values: { min: PASSWORD_MIN_LENGTH }, fields: ['password'] }
	if (password.length > PASSWORD_MAX_LENGTH) return { message: registerMessages.passwordTooLong, values: { max: PASSWORD_MAX_LENGTH }, fields: ['password'] }
	return undefined
}

/** The first rule the form breaks, or undefined when it may be sent. */
export function findRegisterProblem(fields: RegisterFields, { emailVerification, invitationRequired }: RegisterRules): RegisterProblem | undefined {
	if (!fields.username || !fields.password) return { message: registerMessages.required, fields: emptyFields({ username: fields.username, password: fields.password }) }
	if (fields.username.length > USERNAME_MAX_LENGTH) return { message: registerMessages.usernameTooLong, values: { max: USERNAME_MAX_LENGTH }, fields: ['username'] }
	const passwordProblem = findPasswordProblem(fields.password)
	if (passwordProblem) return passwordProblem
	if (fields.password !== fields.password2) return { message: registerMessages.passwordsDiffer, fields: ['password2'] }
	if (emailVerification && (!fields.email || !fields.verificationCode)) return { message: registerMessages.emailAndCodeRequired, fields: emptyFields({ email: fields.email, verificationCode: fields.verificationCode }) }
	if (invitationRequired && !fields.invitationCode) return { message: registerMessages.invitationCodeRequired, fields: ['invitationCode'] }
	return undefined
}
