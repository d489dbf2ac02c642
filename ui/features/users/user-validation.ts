/** The checks of the add and edit drawers (docs/specification/accounts-and-settings.md#user-administration), made before calling the server. */
import { USERNAME_MAX_LENGTH } from '@shared/user-constants'
import { emptyFields, findPasswordProblem, type RegisterProblem, registerMessages } from '@ui/features/auth/register-validation'

/** An empty password is allowed when editing: it leaves the password unchanged. */
export function checkCredentials(username: string, password: string, { passwordRequired }: { passwordRequired: boolean }): RegisterProblem | undefined {
	if (!username || (passwordRequired && !password)) return { message: registerMessages.required, fields: emptyFields(passwordRequired ? { username, password } : { username }) }
	if (username.length > USERNAME_MAX_LENGTH) return { message: '用户名长度不得超过 {max} 个字符', values: { max: USERNAME_MAX_LENGTH }, fields: ['username'] }
	return password ? findPasswordProblem(password) : undefined
}
