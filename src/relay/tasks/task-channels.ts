/** The channels tasks live on, read from the store for polls and reads. */
import { inArray } from 'drizzle-orm'
import type { Dependencies } from '@/dependencies'
import { readableChannels, type RoutableChannel, toRoutableChannel } from '@/db/stores/channels'
import type { RelayServices } from '../services'

/** The channels by id, keys decrypted, whatever their status: a disabled channel's tasks still finish. */
export async function channelsById({ store, secrets, logger }: Dependencies, ids: number[]): Promise<Map<number, RoutableChannel>> {
	const { channels } = store.tables
	const records = ids.length ? await store.db.select().from(channels).where(inArray(channels.id, ids)) : []
	const readable = readableChannels(records, (channel) => toRoutableChannel(secrets, channel), (channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId }))
	return new Map(readable.map((channel) => [channel.id, channel]))
}

/**
 * The channel as a task's polls and reads use it: carrying the key that submitted the task (the
 * upstream knows the task under it). The routing table has an enabled multi-key channel's keys; a
 * task recorded without its key, or whose key is gone, uses the channel's first key.
 */
export function withTaskKey(relay: RelayServices, stored: RoutableChannel, keyIndex: number | undefined): RoutableChannel {
	if (keyIndex === undefined) return stored
	const keys = relay.routing.channel(stored.id)?.keys ?? stored.keys
	const key = keys.find((candidate) => candidate.index === keyIndex)?.key
	return key === undefined || key === stored.key ? stored : { ...stored, key }
}
