/**
 * The in-memory routing table: group → model → enabled channels, rebuilt from the
 * database when channels change. Choosing a channel: the highest priority among channels not yet
 * tried, then weighted random inside that priority. Callers pass which channels can take the call
 * (their type has the endpoint); the others are never picked. A filter passed with a `cacheKey` is
 * evaluated once per group, model and key until the table changes: a relayed call asks two or three
 * times whether its model has a channel, and the answer is the same for every call of its kind.
 */
import type { ChannelListing, RoutableChannel } from '@/db/stores/channels'

export type { RoutableChannel }

/** What the table is built from: the enabled channels it routes to, and what every channel (enabled or not) lists. */
export interface RoutingContents {
	channels: RoutableChannel[]
	listings: readonly ChannelListing[]
}

const listingKey = (group: string, model: string) => `${group}\u0000${model}`

/** Which channels may take a call; by default every channel. */
type ChannelFilter = (channel: RoutableChannel) => boolean

const everyChannel: ChannelFilter = () => true
const NO_CHANNELS: readonly RoutableChannel[] = []

export class RoutingTable {
	private byGroupModel = new Map<string, Map<string, RoutableChannel[]>>()
	private byId = new Map<number, RoutableChannel>()
	private served = new Set<string>()
	/** Group and model pairs (listingKey) that some channel lists, enabled or not. */
	private listed = new Set<string>()
	/** Channels a keyed filter accepts, by group, model and key; emptied whenever the table changes. */
	private accepted = new Map<string, readonly RoutableChannel[]>()
	private loading: Promise<void> | undefined
	private stale = true

	constructor(private readonly load: () => Promise<RoutingContents>) {}

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
		const { channels, listings } = await this.load()
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
		const listed = new Set<string>()
		for (const listing of [...listings, ...channels]) {
			for (const group of listing.groups) for (const model of listing.models) listed.add(listingKey(group, model))
		}
		this.listed = listed
		this.accepted = new Map()
	}

	/**
	 * The channels of the model in the group that `accepts` takes, highest priority first. With a
	 * `cacheKey` (which must stand for the same filter every time) the answer is kept until the table changes.
	 */
	candidates(group: string, model: string, accepts: ChannelFilter, cacheKey: string | undefined): readonly RoutableChannel[] {
		const listed = this.byGroupModel.get(group)?.get(model)
		if (!listed) return NO_CHANNELS
		if (accepts === everyChannel) return listed
		if (cacheKey === undefined) return listed.filter(accepts)
		const key = `${group}\u0000${model}\u0000${cacheKey}`
		let found = this.accepted.get(key)
		if (!found) {
			found = listed.filter(accepts)
			this.accepted.set(key, found)
		}
		return found
	}

	/** Whether some enabled channel, in any group, lists the model. */
	servesModel(model: string): boolean {
		return this.served.has(model)
	}

	/**
	 * Whether some channel of the group lists the model, enabled or not (as of the last rebuild: a
	 * channel taken out at once still lists it). When none does, the model does not exist there.
	 */
	listsModel(group: string, model: string): boolean {
		return this.listed.has(listingKey(group, model))
	}

	channel(id: number): RoutableChannel | undefined {
		return this.byId.get(id)
	}

	hasModel(group: string, model: string, accepts: ChannelFilter = everyChannel, cacheKey?: string): boolean {
		return this.candidates(group, model, accepts, cacheKey).length > 0
	}

	/**
	 * The channel `channelId` when it is one of those `pick` would choose from for the model in the
	 * group (enabled, listing the model in the group, accepted by the filter), whatever its priority.
	 */
	offered(group: string, model: string, channelId: number, { accepts = everyChannel, cacheKey }: { accepts?: ChannelFilter; cacheKey?: string } = {}): RoutableChannel | undefined {
		return this.candidates(group, model, accepts, cacheKey).find((channel) => channel.id === channelId)
	}

	models(group: string): string[] {
		return [...(this.byGroupModel.get(group)?.keys() ?? [])].sort()
	}

	/**
	 * Takes one key of a channel out at once (auto-disabled), and the channel with it when it was the
	 * channel's last; the rebuild that follows confirms it.
	 */
	removeKey(channelId: number, keyIndex: number) {
		const channel = this.byId.get(channelId)
		if (!channel) return
		const keys = channel.keys.filter((key) => key.index !== keyIndex)
		if (keys.length === 0) return this.remove(channelId)
		// The channel object is shared by every list that holds it: the new list reaches them all; the
		// cached candidate lists are made anew, so that what was worked out from the old keys is not reused.
		channel.keys = keys
		this.accepted = new Map()
	}

	/** Takes a channel out at once (auto-disabled); the rebuild that follows confirms it. */
	remove(channelId: number) {
		for (const models of this.byGroupModel.values()) {
			for (const [model, list] of models) models.set(model, list.filter((channel) => channel.id !== channelId))
		}
		this.byId.delete(channelId)
		this.accepted = new Map()
	}

	pick(
		group: string, model: string, tried: ReadonlySet<number>,
		{ accepts = everyChannel, cacheKey, random = Math.random }: { accepts?: ChannelFilter; cacheKey?: string; random?: () => number } = {},
	): RoutableChannel | undefined {
		const candidates = this.candidates(group, model, accepts, cacheKey)
		const untried = tried.size === 0 ? candidates : candidates.filter((channel) => !tried.has(channel.id))
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
