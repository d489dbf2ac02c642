/** Accounts: roles, states, and the shapes of the account calls (docs/specification/accounts-and-settings.md#calls). */
import { z } from 'zod'
import { rowIdTextSchema } from './api'
import { rateLimitFieldsSchema } from './rate-limit'
import { MAX_QUOTA, QUOTA_LIMIT_MESSAGES } from './quota-limit'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE, USERNAME_MAX_LENGTH } from './user-constants'
import { USER_MESSAGES } from './messages/users'

export * from './user-constants'

export const DEFAULT_ROOT_USERNAME = 'root'
export const DEFAULT_ROOT_PASSWORD = '123456'

export { USER_MESSAGES }

const password = z.string().min(PASSWORD_MIN_LENGTH, USER_MESSAGES.passwordTooShort).max(PASSWORD_MAX_LENGTH, USER_MESSAGES.passwordTooLong)
const username = z.string().trim().min(1, USER_MESSAGES.registerRequired).max(USERNAME_MAX_LENGTH, USER_MESSAGES.usernameTooLong)

/** Login accepts a username or an email address; anything longer than either can be is refused unread. */
export const loginSchema = z.object({
	username: z.string({ error: USER_MESSAGES.loginRequired }).trim().min(1, USER_MESSAGES.loginRequired).max(64, USER_MESSAGES.wrongCredentials),
	password: z.string({ error: USER_MESSAGES.loginRequired }).min(1, USER_MESSAGES.loginRequired).max(128, USER_MESSAGES.wrongCredentials),
})

export const registerSchema = z.object({
	username: z.string({ error: USER_MESSAGES.registerRequired }).pipe(username),
	password: z.string({ error: USER_MESSAGES.registerRequired }).min(1, USER_MESSAGES.registerRequired).pipe(password),
	password2: z.string().optional(),
	email: z.string().trim().optional().default(''),
	verification_code: z.string().trim().optional().default(''),
	aff_code: z.string().trim().optional().default(''),
}).refine((body) => body.password2 === undefined || body.password2 === body.password, { message: USER_MESSAGES.passwordsDiffer })

export const createUserSchema = z.object({
	username: z.string({ error: USER_MESSAGES.registerRequired }).pipe(username),
	password: z.string({ error: USER_MESSAGES.registerRequired }).min(1, USER_MESSAGES.registerRequired).pipe(password),
	display_name: z.string().trim().max(20).optional().default(''),
	role: z.union([z.literal(ROLE.user), z.literal(ROLE.admin), z.literal(ROLE.root)]).optional().default(ROLE.user),
})

export const updateUserSchema = z.object({
	id: rowIdTextSchema,
	username: username.optional(),
	display_name: z.string().trim().max(20).optional(),
	password: z.union([z.literal(''), password]).optional(),
	group: z.string().trim().min(1).max(64).optional(),
	quota: z.number().int().min(0, USER_MESSAGES.quotaNegative).max(MAX_QUOTA, QUOTA_LIMIT_MESSAGES.amountLimit).optional(),
	email: z.string().trim().max(50).optional(),
	/** The user's own call limits over all their tokens (0: none of their own; their group's apply). */
	...rateLimitFieldsSchema.shape,
})

export const updateSelfSchema = z.object({
	username: username.optional(),
	display_name: z.string().trim().max(20).optional(),
	password: z.union([z.literal(''), password]).optional(),
	password2: z.string().optional(),
}).refine((body) => !body.password || body.password2 === undefined || body.password2 === body.password, { message: USER_MESSAGES.passwordsDiffer })

/** Deleting one's own account needs the account name typed again (docs/specification/accounts-and-settings.md#personal-settings), checked by the server too. */
export const deleteSelfSchema = z.object(
	{ username: z.string({ error: USER_MESSAGES.deleteConfirm }).max(64, USER_MESSAGES.deleteConfirm) },
	{ error: USER_MESSAGES.deleteConfirm },
)

export const MANAGE_ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete'] as const
export type ManageAction = (typeof MANAGE_ACTIONS)[number]
export const manageUserSchema = z.object({
	id: rowIdTextSchema,
	action: z.enum(MANAGE_ACTIONS, { error: USER_MESSAGES.unknownAction }),
})

export const affTransferSchema = z.object({ quota: z.coerce.number().int().positive() })

export const userSearchSchema = z.object({ keyword: z.string().optional().default(''), group: z.string().optional().default('') })

/** What the API tells about a user; never the password hash or the access token. */
export type UserView = {
	id: number
	username: string
	display_name: string
	role: number
	status: number
	email: string
	github_id: string
	wechat_id: string
	telegram_id: string
	linux_do_id: string
	oidc_id: string
	quota: number
	used_quota: number
	request_count: number
	group: string
	aff_code: string
	aff_count: number
	aff_quota: number
	aff_history_quota: number
	inviter_id: number
	created_time: number
	last_login_time: number
	deleted_at: number | null
	/** The user's own call limits; 0: none of their own. */
	rpm_limit: number
	tpm_limit: number
	rpd_limit: number
	concurrency_limit: number
}

/** `GET /api/user/self/groups`: the groups the user may pick for a token → description and the ratio billing applies there. */
export type UsableGroups = Record<string, { desc: string; ratio: number }>

/** The login answer that the console keeps locally (docs/operations/security.md#sessions-and-roles). */
export type SessionUser = Pick<UserView, 'id' | 'username' | 'display_name' | 'role' | 'status' | 'group'> & {
	password_change_required: boolean
}
