import type { SessionUser } from '@shared/user'

/** localStorage keys shared with the rest of the console. */
export const storageKeys = {
	user: 'user',
	affiliateCode: 'aff',
	language: 'language',
	theme: 'theme',
	sidebarCollapsed: 'sidebar-collapsed',
	/** Page size per table, suffixed with the table's name: `page-size:tokens`. */
	pageSize: 'page-size',
	channelIdSort: 'channel-id-sort',
	/** The `GET /api/models` answer (models per channel type) for the channel editor's presets. */
	channelModels: 'channel-models',
	status: 'status',
	/** The playground's conversations (features/playground/saved-conversations.ts). */
	playgroundConversations: 'playground-conversations',
	/** The token page's start panel, folded by its reader. */
	quickStartFolded: 'quick-start-folded',
} as const

/** The login answer, kept under `user`; its id goes into the New-Api-User header. */
export type StoredUser = SessionUser

export function readStorage(key: string): string | null {
	try {
		return globalThis.localStorage?.getItem(key) ?? null
	} catch {
		return null
	}
}

export function writeStorage(key: string, value: string | null) {
	try {
		if (value === null) globalThis.localStorage?.removeItem(key)
		else globalThis.localStorage?.setItem(key, value)
	} catch {
		// Storage can be disabled (private mode, quota); the console still works for this page view.
	}
}

export function readStoredUser(): StoredUser | null {
	const text = readStorage(storageKeys.user)
	if (!text) return null
	try {
		const user = JSON.parse(text) as StoredUser
		return typeof user?.id === 'number' ? user : null
	} catch {
		return null
	}
}

export function storeUser(user: StoredUser | null) {
	writeStorage(storageKeys.user, user === null ? null : JSON.stringify(user))
}
