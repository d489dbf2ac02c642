/**
 * Token and owner rows by key digest, so an active token costs no database read per call. Any
 * change to tokens or users, on this node or another (the change feed), drops the whole
 * cache; changes to what it does not hold (a balance, a new token's key) tell nothing.
 *
 * Entries are also read again a minute after they were read, as a safety net for what no change
 * told: the call that finds its entry past that age still gets it at once, and the row is read again
 * off its path (one read per entry at a time). Those refreshes share a budget of
 * REFRESHES_PER_SECOND (a token bucket): an entry found stale while the budget is spent is answered
 * as it is and refreshed by a later call. Without it, every entry of a busy node went stale in the
 * same minute and was read again in the same few seconds (10 000 tokens: about half a second of the
 * event loop, estimated from the bench's profile, on top of the calls).
 *
 * Money is never decided here: a stale remaining quota only means the ledger's guarded reserve
 * refuses the call instead, and edits reach the cache at once through the change feed.
 */
import type { ChangeFeed } from '@/lib/change-feed'

const TOKEN_CACHE_TTL_MS = 60_000
const MAX_ENTRIES = 50_000
/**
 * Keys that match no token are remembered too (a client retrying a wrong key costs no read), but
 * apart and fewer: a flood of made-up keys empties only them, never the tokens in use.
 */
export const MAX_UNKNOWN_KEYS = 10_000
/** Safety-net reads at most this often: 50 000 entries are all read again within about four minutes. */
export const REFRESHES_PER_SECOND = 200
const MILLISECONDS_PER_SECOND = 1000

type Entry<Row> = { row: Row | undefined; expiresAt: number; refreshing: boolean }

export function createTokenCache<Row>(changes: ChangeFeed, now: () => number = performance.now.bind(performance)) {
	let entries = new Map<string, Entry<Row>>()
	let unknownKeys = new Map<string, Entry<Row>>()
	// A read that started before a change must not put its (old) row into the new cache.
	let generation = 0
	const clear = () => {
		entries = new Map()
		unknownKeys = new Map()
		generation++
	}
	changes.subscribe('tokens', clear)
	changes.subscribe('users', clear)

	let refreshBudget = REFRESHES_PER_SECOND
	let budgetCountedAt = now()
	/** Takes one refresh from the budget, which refills continuously up to one second's worth. */
	function mayRefresh(): boolean {
		const time = now()
		refreshBudget = Math.min(REFRESHES_PER_SECOND, refreshBudget + ((time - budgetCountedAt) * REFRESHES_PER_SECOND) / MILLISECONDS_PER_SECOND)
		budgetCountedAt = time
		if (refreshBudget < 1) return false
		refreshBudget--
		return true
	}

	/** Reads the row and keeps it, unless a change came meanwhile. */
	async function load(digest: string, read: () => Promise<Row | undefined>): Promise<Row | undefined> {
		const startedIn = generation
		const row = await read()
		if (startedIn !== generation) return row
		const entry = { row, expiresAt: now() + TOKEN_CACHE_TTL_MS, refreshing: false }
		if (row === undefined) {
			entries.delete(digest)
			if (unknownKeys.size >= MAX_UNKNOWN_KEYS && !unknownKeys.has(digest)) unknownKeys = new Map()
			unknownKeys.set(digest, entry)
		} else {
			unknownKeys.delete(digest)
			if (entries.size >= MAX_ENTRIES && !entries.has(digest)) clear()
			entries.set(digest, entry)
		}
		return row
	}

	return {
		async get(digest: string, read: () => Promise<Row | undefined>): Promise<Row | undefined> {
			const cached = entries.get(digest) ?? unknownKeys.get(digest)
			if (!cached) return load(digest, read)
			if (cached.expiresAt <= now() && !cached.refreshing && mayRefresh()) {
				cached.refreshing = true
				load(digest, read).catch(() => {
					cached.refreshing = false
				})
			}
			return cached.row
		},
	}
}
