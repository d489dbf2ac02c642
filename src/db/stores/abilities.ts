/**
 * The `abilities` table: the routing table (docs/architecture.md#router) materialised, one row per (group, model,
 * channel) of each channel's groups × models, carrying the channel's priority, weight and tag and
 * `enabled` = status is enabled. These are units of work (db/transaction.ts): compose them with
 * `yield*` into the transaction that changes the channels, so the table never disagrees with them.
 */
import { inArray } from 'drizzle-orm'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { splitList } from '@shared/channel'
import { rows, run, type Database, type Tables } from '@/db'

/** Rows per statement, well inside both dialects' limits on bound parameters. */
const CHUNK = 500

function chunks<Item>(items: readonly Item[]): Item[][] {
	const result: Item[][] = []
	for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK))
	return result
}

type AbilitySource = Pick<Tables['channels']['$inferSelect'], 'id' | 'models' | 'group' | 'status' | 'priority' | 'weight' | 'tag'>

function abilitiesOf(channel: AbilitySource): Tables['abilities']['$inferInsert'][] {
	const models = splitList(channel.models)
	return splitList(channel.group).flatMap((group) => models.map((model) => ({
		group,
		model,
		channelId: channel.id,
		enabled: channel.status === CHANNEL_STATUS.enabled,
		priority: channel.priority,
		weight: channel.weight,
		tag: channel.tag,
	})))
}

function sourceColumns({ channels }: Tables) {
	return {
		id: channels.id, models: channels.models, group: channels.group, status: channels.status,
		priority: channels.priority, weight: channels.weight, tag: channels.tag,
	}
}

function* insertAbilities(tx: Database, tables: Tables, sources: AbilitySource[]) {
	for (const batch of chunks(sources.flatMap(abilitiesOf))) yield* run(tx.insert(tables.abilities).values(batch))
}

export function* deleteAbilities(tx: Database, tables: Tables, channelIds: readonly number[]) {
	for (const batch of chunks(channelIds)) yield* run(tx.delete(tables.abilities).where(inArray(tables.abilities.channelId, batch)))
}

/** Rewrites the abilities of these channels from their current rows; answers how many channels exist. */
export function* rebuildAbilities(tx: Database, tables: Tables, channelIds: readonly number[]) {
	yield* deleteAbilities(tx, tables, channelIds)
	let found = 0
	for (const batch of chunks(channelIds)) {
		const sources = yield* rows(tx.select(sourceColumns(tables)).from(tables.channels).where(inArray(tables.channels.id, batch)))
		yield* insertAbilities(tx, tables, sources)
		found += sources.length
	}
	return found
}

/** One ability as text, to compare the stored table with what the channels say. */
const abilityKey = (ability: Tables['abilities']['$inferInsert']) =>
	JSON.stringify([ability.channelId, ability.group, ability.model, ability.enabled ?? true, ability.priority ?? 0, ability.weight ?? 0, ability.tag ?? ''])

/**
 * Rebuilds the whole table (`POST /api/channel/fix`), dropping rows of channels that no longer
 * exist; answers how many channels' abilities were wrong (missing, extra or stale rows), so a
 * healthy database answers 0.
 */
export function* rebuildAllAbilities(tx: Database, tables: Tables) {
	const stored = yield* rows(tx.select().from(tables.abilities))
	const sources = yield* rows(tx.select(sourceColumns(tables)).from(tables.channels))
	const wanted = new Set(sources.flatMap(abilitiesOf).map(abilityKey))
	const present = new Set(stored.map(abilityKey))
	const wrong = new Set<number>()
	for (const ability of stored) if (!wanted.has(abilityKey(ability))) wrong.add(ability.channelId)
	for (const source of sources) for (const ability of abilitiesOf(source)) if (!present.has(abilityKey(ability))) wrong.add(source.id)
	yield* run(tx.delete(tables.abilities))
	yield* insertAbilities(tx, tables, sources)
	return wrong.size
}
