/** Channel types as the server knows them (`GET /api/channel/types`): the list's type column and the editor's type select. */
import type { ChannelTypeInfo } from '@shared/channel'
import type { Api } from '@ui/lib/api'

/** The server's channel types in the order to list them, or none when the call fails (types then show as unknown). */
export async function loadChannelTypes(api: Api): Promise<ChannelTypeInfo[]> {
	const envelope = await api.get<ChannelTypeInfo[]>('/api/channel/types').catch(() => undefined)
	return envelope?.success ? envelope.data : []
}

export const findChannelType = (types: readonly ChannelTypeInfo[], type: number) => types.find((info) => info.type === type)
