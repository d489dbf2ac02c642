/**
 * Token and owner rows by key digest, kept for a second so a busy token costs no database read per
 * call. Local changes to tokens or users drop the cache at once; other nodes' changes show within
 * the second (design §9). Money is never decided here: the ledger's guarded updates are.
 */
import type { ChangeFeed } from '@/lib/change-feed'

export const TOKEN_CACHE_TTL_MS = 1000
const MAX_ENTRIES = 50_000

export function createTokenCache<Row>(changes: ChangeFeed, now: () => number = performance.now.bind(performance)) {
	let entries = new Map<string, { row: Row | undefined; expiresAt: number }>()
	const clear = () => {
		entries = new Map()
	}
	changes.subscribe('tokens', clear)
	changes.subscribe('users', clear)
	return {
		async get(digest: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
			const time = now()
			const cached = entries.get(digest)
			if (cached && cached.expiresAt > time) return cached.row
			const row = await load()
			if (entries.size >= MAX_ENTRIES) clear()
			entries.set(digest, { row, expiresAt: time + TOKEN_CACHE_TTL_MS })
			return row
		},
	}
}
