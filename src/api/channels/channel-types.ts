/**
 * The channel types Ferry knows are its provider adaptors' (`src/relay/providers/registry.ts`):
 * `GET /api/channel/types` hands the console their names, key formats and capabilities (the same
 * `capabilities(type)` routing and the channel tools ask), and channels are saved only with one of them.
 */
import { CHANNEL_MESSAGES, type ChannelCapabilities, type ChannelTypeInfo } from '@shared/channel'
import { capabilities, channelTypeAdaptors, isKnownChannelType } from '@/relay/providers/registry'
import { badRequest } from '../errors'

function capabilitiesOf(type: number): ChannelCapabilities {
	const can = capabilities(type)!
	return {
		endpoints: { ...can.endpoints },
		native_formats: [...can.nativeFormats],
		task_platform: can.taskPlatform ?? null,
		model_list: can.listsModels,
		balance: can.readsBalance,
		test_endpoint: can.testEndpoint ?? null,
	}
}

export function channelTypes(): ChannelTypeInfo[] {
	return channelTypeAdaptors().map((adaptor) => ({ type: adaptor.type, name: adaptor.name, key_format: adaptor.keyFormat ?? '', capabilities: capabilitiesOf(adaptor.type) }))
}

/** Refuses a type no adaptor declares, as the schema refuses the other bad fields (400); absent passes. */
export function requireKnownType(type: number | null | undefined) {
	if (type !== undefined && type !== null && !isKnownChannelType(type)) throw badRequest(CHANNEL_MESSAGES.typeUnknown)
}
