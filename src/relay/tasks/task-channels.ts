/** The channels tasks live on, read from the store for polls and reads. */
import { inArray } from 'drizzle-orm'
import type { Dependencies } from '@/dependencies'
import { readableChannels, type RoutableChannel, toRoutableChannel } from '@/db/stores/channels'

/** The channels by id, keys decrypted, whatever their status: a disabled channel's tasks still finish. */
export async function channelsById({ store, secrets, logger }: Dependencies, ids: number[]): Promise<Map<number, RoutableChannel>> {
	const { channels } = store.tables
	const records = ids.length ? await store.db.select().from(channels).where(inArray(channels.id, ids)) : []
	const readable = readableChannels(records, (channel) => toRoutableChannel(secrets, channel), (channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId }))
	return new Map(readable.map((channel) => [channel.id, channel]))
}
