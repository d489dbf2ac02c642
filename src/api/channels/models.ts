/**
 * `GET /api/models`: channel type → model names, which the channel editor uses to preset a new
 * channel's models. For now it is what channels of each type are configured with; the provider
 * registry adds each type's own model list when the providers land.
 */
import type { Dependencies } from '@/dependencies'

export async function modelsByChannelType({ store }: Dependencies): Promise<Record<string, string[]>> {
	const { channels } = store.tables
	const configured = await store.db.select({ type: channels.type, models: channels.models }).from(channels)
	const byType = new Map<number, Set<string>>()
	for (const channel of configured) {
		const names = byType.get(channel.type) ?? new Set<string>()
		for (const model of channel.models.split(',')) if (model.trim()) names.add(model.trim())
		byType.set(channel.type, names)
	}
	return Object.fromEntries([...byType].map(([type, names]) => [String(type), [...names].sort()]))
}
