import { data } from 'react-router'
import type { ChannelDetail, ChannelTypeInfo } from '@shared/channel'
import { DEFAULT_CHANNEL_GROUP } from '@shared/channel-constants'
import { loadChannelTypes } from '@ui/features/channels/channel-types'
import type { Api } from '@ui/lib/api'
import { getChannel, getConfiguredModels, getGroups, getModelsByType, type ModelsByType } from './api'

export type EditorData = {
	/** null in create mode, and in edit mode when the channel could not be read (see `missing`); a multi-key channel's keys with it. */
	channel: ChannelDetail | null
	/** The server's message when the channel to edit could not be read. */
	missing?: string
	groups: string[]
	configuredModels: string[]
	/** The type select's types, names and key formats. */
	channelTypes: ChannelTypeInfo[]
	/** `GET /api/models`, the presets per type; null when the call failed (the editor then uses its cached copy). */
	modelsByType: ModelsByType | null
}

const notFoundStatus = 404

/** `idParameter` is the route's `:id`: absent means create mode. Call after the role check. */
export async function loadEditorData(api: Api, idParameter: string | undefined): Promise<EditorData> {
	const creating = idParameter === undefined
	const id = Number(idParameter)
	if (!creating && !(Number.isSafeInteger(id) && id > 0)) throw data(null, { status: notFoundStatus })
	const [channel, groups, models, channelTypes, modelsByType] = await Promise.all([
		creating ? undefined : getChannel(api, id),
		getGroups(api).catch(() => undefined),
		getConfiguredModels(api).catch(() => undefined),
		loadChannelTypes(api),
		getModelsByType(api).catch(() => undefined),
	])
	return {
		channel: channel?.success ? channel.data : null,
		...(channel && !channel.success ? { missing: channel.message } : {}),
		groups: groups?.success ? groups.data : [DEFAULT_CHANNEL_GROUP],
		configuredModels: models?.success ? models.data.map((entry) => entry.id) : [],
		channelTypes,
		modelsByType: modelsByType?.success ? modelsByType.data : null,
	}
}
