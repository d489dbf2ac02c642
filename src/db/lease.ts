/**
 * Leases (docs/operations/several-nodes.md#background-jobs): a background job runs on the node holding its row in `leases`. Taking the
 * lease succeeds when nobody holds it, when it expired, or when the caller already holds it (a
 * renewal); all three are one guarded upsert, so two nodes never both succeed.
 */
import { query, type Store } from '@/db'
import { nowSeconds } from '@/lib/clock'

const TAKE_LEASE = `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
	ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
	WHERE leases.holder = excluded.holder OR leases.expires_at < $4
	RETURNING holder`

/** Takes or renews the lease for `seconds`; answers whether this holder has it now. */
export async function takeLease(store: Store, name: string, holder: string, seconds: number): Promise<boolean> {
	const now = nowSeconds()
	const [row] = await store.transaction(function* () {
		return yield* query<{ holder: string }>(TAKE_LEASE, [name, holder, now + seconds, now])
	})
	return row?.holder === holder
}

/** Gives the lease up (at shutdown) so another node need not wait for it to expire. */
export async function releaseLease(store: Store, name: string, holder: string): Promise<void> {
	await store.transaction(function* () {
		return yield* query('DELETE FROM leases WHERE name = $1 AND holder = $2 RETURNING name', [name, holder])
	})
}
