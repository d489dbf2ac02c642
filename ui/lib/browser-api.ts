import { createApi, expiredLoginPath } from '@ui/lib/api'
import { readStoredUser, storeUser } from '@ui/lib/storage'

let navigateTo = (path: string) => window.location.assign(path)

/** entry.client hands over the router so that an expired session is a client-side navigation. */
export function setApiNavigation(navigate: (path: string) => void) {
	navigateTo = navigate
}

/** The language the page shows (set by the render and the language switch). */
export const pageLanguage = () => (document.documentElement.lang.startsWith('en') ? 'en' : 'zh')

export const browserApi = createApi(
	'browser',
	(path, init) => {
		// The server words its messages in the language the page shows.
		const headers: Record<string, string> = { ...init.headers, 'cache-control': 'no-store', 'accept-language': pageLanguage() }
		const user = readStoredUser()
		if (user) headers['New-Api-User'] = String(user.id)
		return fetch(path, { ...init, headers, credentials: 'same-origin', cache: 'no-store' })
	},
	() => {
		storeUser(null)
		navigateTo(expiredLoginPath)
	},
	() => readStoredUser() !== null,
)
