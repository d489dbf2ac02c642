/**
 * Who is signed in. The server knows from the session cookie and renders with it; the browser keeps
 * the login answer in localStorage (its id goes into New-Api-User). Protected routes sit under the
 * `console` layout route, whose loader answers the fresh account or redirects to the login page.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { data, redirect, useRouteLoaderData } from 'react-router'
import { ROLE } from '@shared/user-constants'
import type { UserView } from '@shared/user'
import { type Api, expiredLoginPath } from '@ui/lib/api'
import { storeUser } from '@ui/lib/storage'

export type { UserView }

/** Thrown by loaders of admin pages for a lesser role; the console layout shows its not-allowed state. */
export const notAllowedStatus = 403

const selfRequests = new WeakMap<Api, Promise<UserView | null>>()

/** The signed-in account, or null. On the server one request's loaders share one call. */
export function loadSelf(api: Api): Promise<UserView | null> {
	if (!api.hasSession()) return Promise.resolve(null)
	const load = async () => {
		const envelope = await api.request<UserView>('/api/user/self', { handleUnauthorized: false }).catch(() => undefined)
		return envelope?.success ? envelope.data : null
	}
	if (api.side === 'browser') return load()
	let pending = selfRequests.get(api)
	if (!pending) {
		pending = load()
		selfRequests.set(api, pending)
	}
	return pending
}

/** For the console layout's loader: the account, or a redirect (expired when a session was there). */
export async function requireSelf(api: Api): Promise<UserView> {
	const hadSession = api.hasSession()
	const user = await loadSelf(api)
	if (!user) {
		if (api.side === 'browser') storeUser(null)
		throw redirect(hadSession ? expiredLoginPath : '/login')
	}
	return user
}

/** Admin pages' loaders call this first: a lesser role gets the not-allowed state and no data. */
export async function requireRole(api: Api, role: number = ROLE.admin): Promise<UserView> {
	const user = await requireSelf(api)
	if (user.role < role) throw data(null, { status: notAllowedStatus })
	return user
}

export const isAdmin = (user: Pick<UserView, 'role'> | null | undefined) => (user?.role ?? 0) >= ROLE.admin
export const isRoot = (user: Pick<UserView, 'role'> | null | undefined) => (user?.role ?? 0) >= ROLE.root

type SessionState = { user: UserView | null; setUser: (user: UserView | null) => void }

const SessionContext = createContext<SessionState>({ user: null, setUser: () => {} })

export function SessionProvider({ initialUser, children }: { initialUser: UserView | null; children: ReactNode }) {
	const [user, setUserState] = useState(initialUser)
	useEffect(() => setUserState(initialUser), [initialUser])
	const setUser = useCallback((next: UserView | null) => {
		setUserState(next)
		if (next === null) storeUser(null)
	}, [])
	const value = useMemo(() => ({ user, setUser }), [user, setUser])
	return <SessionContext value={value}>{children}</SessionContext>
}

/** The signed-in account: fresh from the console layout on protected pages, else the session's. */
export function useCurrentUser(): UserView | null {
	const layout = useRouteLoaderData('console') as { user: UserView } | undefined
	const session = useContext(SessionContext)
	return layout?.user ?? session.user
}

export function useSession() {
	return useContext(SessionContext)
}
