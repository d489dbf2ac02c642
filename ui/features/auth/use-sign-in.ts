import { useCallback } from 'react'
import { useSession, type UserView } from '@ui/lib/session'
import { type StoredUser, storeUser } from '@ui/lib/storage'

/** Keeps a login answer: stored for the New-Api-User header, and in the session for the header bar. */
export function useSignIn() {
	const session = useSession()
	return useCallback((user: StoredUser) => {
		storeUser(user)
		// The login answer is a subset of the account; the console layout loads the rest on the next page.
		session.setUser(user as unknown as UserView)
	}, [session])
}
