/**
 * The count of a channel's health checks failed in a row (`channels.health_failures`), kept in the
 * database so that it survives the `channel-health` lease moving to another node and counts the
 * "test all" rounds of every node alike. Each change is one guarded statement: an increment that
 * answers the new count, or a reset that writes only when there is something to reset.
 */
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Store } from '@/db'

/** One more failed check; answers the count now (0 when the channel is gone). */
export async function countHealthFailure(store: Store, channelId: number): Promise<number> {
	const { channels } = store.tables
	const [row] = await store.db.update(channels).set({ healthFailures: sql`${channels.healthFailures} + 1` })
		.where(eq(channels.id, channelId)).returning({ failures: channels.healthFailures })
	return row?.failures ?? 0
}

/** A passed check, or the disable the failures led to: the count starts again. */
export async function resetHealthFailures(store: Store, channelId: number): Promise<void> {
	const { channels } = store.tables
	await store.db.update(channels).set({ healthFailures: 0 }).where(and(eq(channels.id, channelId), ne(channels.healthFailures, 0)))
}
