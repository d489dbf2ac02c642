/**
 * `channels.response_time` follows real traffic without a write per call: at most one write per
 * channel per interval, with the latest duration.
 */
import { eq } from 'drizzle-orm'
import type { Store } from '@/db'

const RESPONSE_TIME_WRITE_INTERVAL_MS = 10_000

export function createResponseTimeRecorder(store: Store, now: () => number = Date.now) {
	const lastWrite = new Map<number, number>()
	return (channelId: number, milliseconds: number) => {
		const time = now()
		if (time - (lastWrite.get(channelId) ?? -Infinity) < RESPONSE_TIME_WRITE_INTERVAL_MS) return
		lastWrite.set(channelId, time)
		const { channels } = store.tables
		void store.db.update(channels).set({ responseTime: milliseconds }).where(eq(channels.id, channelId)).catch(() => {})
	}
}
