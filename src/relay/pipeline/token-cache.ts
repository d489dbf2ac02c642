/**
 * Token and owner rows by key digest, so an active token costs no database read per call. Any
 * change to tokens or users, on this node or another (the change feed, design §9), drops the whole
 * cache; entries also expire after a minute as a safety net. Money is never decided here: a stale
 * remaining quota only means the ledger's guarded reserve refuses the call instead.
 */
import type { ChangeFeed } from '@/lib/change-feed'

const TOKEN_CACHE_TTL_MS = 60_000
const MAX_ENTRIES = 50_000

export function createTokenCache<Row>(changes: ChangeFeed, now: () => number = performance.now.bind(performance)) {
	let entries = new Map<string, { row: Row | undefined; expiresAt: number }>()
	// A read that started before a change must not put its (old) row into the new cache.
	let generation = 0
	const clear = () => {
		entries = new Map()
		generation++
	}
	changes.subscribe('tokens', clear)
	changes.subscribe('users', clear)
	return {
		async get(digest: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
			const time = now()
			const cached = entries.get(digest)
			if (cached && cached.expiresAt > time) return cached.row
			const startedIn = generation
			const row = await load()
			if (startedIn !== generation) return row
			if (entries.size >= MAX_ENTRIES) clear()
			entries.set(digest, { row, expiresAt: time + TOKEN_CACHE_TTL_MS })
			return row
		},
	}
}
