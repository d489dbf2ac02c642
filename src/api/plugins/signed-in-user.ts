import { USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { sessionUser } from '@/auth/session-user'
import type { UserRecord } from '@/db/stores/users'

/**
 * The signed-in user behind a request to a public route, or undefined: a valid console session of
 * a live, enabled user on the current session version, named by `New-Api-User` (the auth plugin's
 * rules, except that a missing session is not an error here).
 */
export async function signedInUser(dependencies: Dependencies, headers: Headers): Promise<UserRecord | undefined> {
	const user = await sessionUser(dependencies, headers)
	if (!user || headers.get('new-api-user') !== String(user.id) || user.status !== USER_STATUS.enabled) return undefined
	return user
}
