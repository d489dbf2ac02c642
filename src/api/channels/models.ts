/**
 * `GET /api/models`: channel type → model names, which the channel editor presets a new channel's
 * models from (docs/specification/channels.md#types). Every type Ferry knows answers its adaptor's default models, in their
 * order, followed by the other names its configured channels serve, sorted; a type only stored
 * channels have (one Ferry no longer knows) answers those.
 */
import type { Dependencies } from '@/dependencies'
import { channelTypeDescriptions } from '@/relay/providers/registry'

export async function modelsByChannelType({ store }: Dependencies): Promise<Record<string, string[]>> {
	const { channels } = store.tables
	const configured = await store.db.select({ type: channels.type, models: channels.models }).from(channels)
	const added = new Map<number, Set<string>>()
	for (const channel of configured) {
		const names = added.get(channel.type) ?? new Set<string>()
		for (const model of channel.models.split(',')) if (model.trim()) names.add(model.trim())
		added.set(channel.type, names)
	}
	const byType = new Map<number, readonly string[]>(channelTypeDescriptions().map((description) => [description.type, description.defaultModels]))
	for (const type of added.keys()) if (!byType.has(type)) byType.set(type, [])
	return Object.fromEntries([...byType].map(([type, defaults]) => {
		const extra = [...(added.get(type) ?? [])].filter((name) => !defaults.includes(name)).sort()
		return [String(type), [...defaults, ...extra]]
	}))
}
