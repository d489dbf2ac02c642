/**
 * The one reading of who a request's console session belongs to: the undeleted user named by a
 * valid session cookie, on the user's current session version. Any status: callers decide what a
 * disabled user may do (the management API refuses, OAuth binding and the playground too).
 */
import type { Store } from '@/db'
import { findUser, type UserRecord } from '@/db/stores/users'
import type { Sessions } from './session'

export async function sessionUser({ sessions, store }: { sessions: Sessions; store: Store }, headers: Headers): Promise<UserRecord | undefined> {
	const claims = await sessions.fromHeaders(headers)
	if (!claims) return undefined
	const user = await findUser(store, claims.sub)
	return user && user.sessionVersion === claims.ver ? user : undefined
}
