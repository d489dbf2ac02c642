/** The checks of the add and edit drawers (seed 000 §5, seed 002 §5), made before calling the server. */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@shared/user'

export type ValidationProblem = { message: string; values?: Record<string, number> }

export const credentialsRequiredMessage = '用户名和密码不能为空'

/** An empty password is allowed when editing: it leaves the password unchanged. */
export function checkCredentials(username: string, password: string, { passwordRequired }: { passwordRequired: boolean }): ValidationProblem | undefined {
	if (!username || (passwordRequired && !password)) return { message: credentialsRequiredMessage }
	if (username.length > USERNAME_MAX_LENGTH) return { message: '用户名长度不得超过 {max} 个字符', values: { max: USERNAME_MAX_LENGTH } }
	if (!password) return undefined
	if (password.length < PASSWORD_MIN_LENGTH) return { message: '密码长度不得小于 {min} 位', values: { min: PASSWORD_MIN_LENGTH } }
	if (password.length > PASSWORD_MAX_LENGTH) return { message: '密码长度不得超过 {max} 位', values: { max: PASSWORD_MAX_LENGTH } }
	return undefined
}
