import { USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { readCookie, SESSION_COOKIE, verifySession } from '../plugins/session'
import { findUser } from '../users/repository'
import type { UserRecord } from '../users/view'

/**
 * The signed-in user behind a request to a public route, or undefined: a valid console session of
 * a live, enabled user on the current session version, named by `New-Api-User` (the auth plugin's
 * rules, except that a missing session is not an error here).
 */
export async function signedInUser(dependencies: Dependencies, headers: Headers): Promise<UserRecord | undefined> {
	const claims = verifySession(dependencies.secrets, readCookie(headers.get('cookie'), SESSION_COOKIE) ?? '')
	if (!claims || headers.get('new-api-user') !== String(claims.sub)) return undefined
	const user = await findUser(dependencies.store, claims.sub)
	if (!user || user.sessionVersion !== claims.ver || user.status !== USER_STATUS.enabled) return undefined
	return user
}
