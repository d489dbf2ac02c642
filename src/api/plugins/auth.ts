/**
 * Authentication and the route policy, applied before body validation so that an anonymous
 * caller learns nothing but 401. A caller is either a console session (cookie) or a script with
 * the system access token (`Authorization: <token>`); both must send `New-Api-User: <their id>`,
 * which also stops cross-site form posts.
 */
import { Elysia } from 'elysia'
import { and, eq, isNull } from 'drizzle-orm'
import { API_MESSAGES } from '@shared/api'
import { USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { ApiError, forbidden, notFound, unauthorized } from '../errors'
import { ACCESS_ROLE, accessFor } from '../route-policy'
import { enforceMoneyLimit, isMoneyRoute } from './money-limit'
import { sessionUser } from '@/auth/session-user'
import type { UserRecord } from '@/db/stores/users'

export type Caller = { user: UserRecord; via: 'session' | 'access_token' }

async function loadActiveUser({ store }: Dependencies, condition: ReturnType<typeof eq>) {
	const { users } = store.tables
	const [user] = await store.db.select().from(users).where(and(condition, isNull(users.deletedAt))).limit(1)
	return user
}

async function authenticate(dependencies: Dependencies, headers: Headers): Promise<Caller> {
	const { users } = dependencies.store.tables
	let caller: Caller | undefined
	const authorization = headers.get('authorization')?.replace(/^Bearer\s+/i, '').trim()
	if (authorization) {
		const user = await loadActiveUser(dependencies, eq(users.accessTokenHash, dependencies.secrets.digest(authorization)))
		if (user) caller = { user, via: 'access_token' }
	} else {
		const user = await sessionUser(dependencies, headers)
		if (user) caller = { user, via: 'session' }
	}
	if (!caller || caller.user.status !== USER_STATUS.enabled) throw unauthorized()
	if (headers.get('new-api-user') !== String(caller.user.id)) throw new ApiError(API_MESSAGES.userHeaderMissing, 401)
	return caller
}

/**
 * Gives every route of the instance that uses it a `caller` (undefined on public routes) after
 * checking the route's entry in the route policy, and counts a money call against the caller's
 * limit (`./money-limit.ts`) before its body is even validated.
 */
export function authentication(dependencies: Dependencies) {
	return new Elysia().derive({ as: 'scoped' }, async ({ request, route }) => {
		const access = accessFor(request.method, route)
		if (access === undefined) throw notFound()
		if (access === 'public') return { caller: undefined as Caller | undefined }
		const caller = await authenticate(dependencies, request.headers)
		if (caller.user.role < ACCESS_ROLE[access]) throw forbidden()
		if (isMoneyRoute(request.method, route)) await enforceMoneyLimit(dependencies.rateLimiter, caller.user.id)
		return { caller: caller as Caller | undefined }
	})
}

/** For handlers of non-public routes, where the plugin guarantees a caller. */
export function requireCaller(caller: Caller | undefined): Caller {
	if (!caller) throw unauthorized()
	return caller
}
