/**
 * The in-memory routing table (design §5.4): group → model → enabled channels, rebuilt from the
 * database when channels change. Choosing a channel: the highest priority among channels not yet
 * tried, then weighted random inside that priority. Callers pass which channels can take the call
 * (their type has the endpoint); the others are never picked.
 */
import type { RoutableChannel } from '@/db/stores/channels'

export type { RoutableChannel }

/** Which channels may take a call; by default every channel. */
type ChannelFilter = (channel: RoutableChannel) => boolean

const everyChannel: ChannelFilter = () => true

export class RoutingTable {
	private byGroupModel = new Map<string, Map<string, RoutableChannel[]>>()
	private byId = new Map<number, RoutableChannel>()
	private served = new Set<string>()
	private loading: Promise<void> | undefined
	private stale = true

	constructor(private readonly load: () => Promise<RoutableChannel[]>) {}

	/** Marks the table stale; the next lookup rebuilds it. */
	invalidate() {
		this.stale = true
	}

	/** Resolves once the table reflects every change notified before the call. */
	async ready(): Promise<void> {
		while (this.stale || this.loading) {
			if (!this.loading) {
				this.stale = false
				this.loading = this.rebuild()
					.catch((error: unknown) => {
						this.stale = true
						throw error
					})
					.finally(() => {
						this.loading = undefined
					})
			}
			await this.loading
		}
	}

	private async rebuild() {
		const channels = await this.load()
		const byGroupModel = new Map<string, Map<string, RoutableChannel[]>>()
		for (const channel of channels) {
			for (const group of channel.groups) {
				const models = byGroupModel.get(group) ?? new Map<string, RoutableChannel[]>()
				for (const model of channel.models) models.set(model, [...(models.get(model) ?? []), channel])
				byGroupModel.set(group, models)
			}
		}
		for (const models of byGroupModel.values()) for (const list of models.values()) list.sort((a, b) => b.priority - a.priority)
		this.byGroupModel = byGroupModel
		this.byId = new Map(channels.map((channel) => [channel.id, channel]))
		this.served = new Set(channels.flatMap((channel) => channel.models))
	}

	/** Whether some enabled channel, in any group, lists the model. */
	servesModel(model: string): boolean {
		return this.served.has(model)
	}

	channel(id: number): RoutableChannel | undefined {
		return this.byId.get(id)
	}

	hasModel(group: string, model: string, accepts: ChannelFilter = everyChannel): boolean {
		return this.byGroupModel.get(group)?.get(model)?.some(accepts) ?? false
	}

	models(group: string): string[] {
		return [...(this.byGroupModel.get(group)?.keys() ?? [])].sort()
	}

	/** Takes a channel out at once (auto-disabled); the rebuild that follows confirms it. */
	remove(channelId: number) {
		for (const models of this.byGroupModel.values()) {
			for (const [model, list] of models) models.set(model, list.filter((channel) => channel.id !== channelId))
		}
		this.byId.delete(channelId)
	}

	pick(
		group: string, model: string, tried: ReadonlySet<number>,
		{ accepts = everyChannel, random = Math.random }: { accepts?: ChannelFilter; random?: () => number } = {},
	): RoutableChannel | undefined {
		const untried = (this.byGroupModel.get(group)?.get(model) ?? []).filter((channel) => !tried.has(channel.id) && accepts(channel))
		if (untried.length === 0) return undefined
		const top = untried[0]!.priority
		const level = untried.filter((channel) => channel.priority === top)
		const total = level.reduce((sum, channel) => sum + Math.max(0, channel.weight), 0)
		if (total === 0) return level[Math.floor(random() * level.length)]
		let ticket = random() * total
		for (const channel of level) {
			ticket -= Math.max(0, channel.weight)
			if (ticket < 0) return channel
		}
		return level[level.length - 1]
	}
}
