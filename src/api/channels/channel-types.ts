/**
 * The channel types Ferry knows are its provider adaptors' (`src/relay/providers/registry.ts`):
 * `GET /api/channel/types` hands the console their names and key formats, and channels are saved
 * only with one of them.
 */
import { CHANNEL_MESSAGES, type ChannelTypeInfo } from '@shared/channel'
import { channelTypeAdaptors, isKnownChannelType } from '@/relay/providers/registry'
import { badRequest } from '../errors'

export function channelTypes(): ChannelTypeInfo[] {
	return channelTypeAdaptors().map((adaptor) => ({ type: adaptor.type, name: adaptor.name, key_format: adaptor.keyFormat ?? '' }))
}

/** Refuses a type no adaptor declares, as the schema refuses the other bad fields (400); absent passes. */
export function requireKnownType(type: number | null | undefined) {
	if (type !== undefined && type !== null && !isKnownChannelType(type)) throw badRequest(CHANNEL_MESSAGES.typeUnknown)
}
