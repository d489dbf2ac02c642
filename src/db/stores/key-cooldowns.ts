/**
 * Key cooldowns shared between nodes (the `key_cooldowns` table): a node that cools a key writes it
 * here and tells the others (change topic `health`), which read the cooldowns still running. A
 * cooldown only ever grows: a shorter one for a key already cooling longer changes nothing.
 */
import { gt, lte, sql } from 'drizzle-orm'
import type { Store } from '@/db'

export interface StoredCooldown {
	channelId: number
	keyIndex: number
	/** Milliseconds since the epoch. */
	until: number
}

export async function saveCooldown(store: Store, cooldown: StoredCooldown): Promise<void> {
	const { keyCooldowns } = store.tables
	await store.db.insert(keyCooldowns).values(cooldown)
		.onConflictDoUpdate({ target: [keyCooldowns.channelId, keyCooldowns.keyIndex], set: { until: sql`case when ${keyCooldowns.until} > excluded."until" then ${keyCooldowns.until} else excluded."until" end` } })
}

/** The cooldowns still running at `now`. */
export async function activeCooldowns(store: Store, now: number): Promise<StoredCooldown[]> {
	const { keyCooldowns } = store.tables
	const rows = await store.db.select().from(keyCooldowns).where(gt(keyCooldowns.until, now))
	return rows.map((row) => ({ channelId: Number(row.channelId), keyIndex: Number(row.keyIndex), until: Number(row.until) }))
}

/** Deletes the cooldowns over by `now`. */
export async function sweepCooldowns(store: Store, now: number): Promise<void> {
	const { keyCooldowns } = store.tables
	await store.db.delete(keyCooldowns).where(lte(keyCooldowns.until, now))
}
