/**
 * Creating, reading, editing and deleting channels. Every change rewrites the changed channels'
 * abilities in the same transaction and then tells the routing table (`changes.notify`).
 */
import { eq, inArray, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import {
	CHANNEL_MESSAGES, CREATE_MODE, keyDestinationChanged, splitList, type ChannelModelEntry, type ChannelView, type createChannelSchema,
	type KeyDestination, type updateChannelSchema,
} from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { rows, type Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { badRequest, forbidden, refused } from '../errors'
import { deleteAbilities, rebuildAbilities, rebuildAllAbilities } from '@/db/stores/abilities'
import { requireKnownType } from './channel-types'
import { batchKeys, batchName, changedColumns, newChannelColumns } from './fields'
import { columnsWithoutKey, toChannelView } from './view'

export async function getChannel({ store }: Dependencies, id: number): Promise<ChannelView> {
	const { channels } = store.tables
	const [channel] = await store.db.select(columnsWithoutKey(store.tables)).from(channels).where(eq(channels.id, id))
	if (!channel) throw refused(CHANNEL_MESSAGES.notFound)
	return toChannelView(channel)
}

/**
 * Who may send a stored key somewhere new without entering it (KeyDestination in @shared/channel):
 * the super admin only. Root owns the deployment and its keys — it entered them, and it alone
 * grants roles and outbound consent — so asking it to re-enter a key to move a channel onto a
 * proxy would guard it against itself; an admin is trusted to use keys, not to take them.
 */
const mayRedirectStoredKey = (callerRole: number) => callerRole >= ROLE.root

function checkKeyDestination(before: KeyDestination, after: KeyDestination, callerRole: number) {
	if (!mayRedirectStoredKey(callerRole) && keyDestinationChanged(before, after)) throw forbidden(CHANNEL_MESSAGES.keyNeededForNewDestination)
}

/** Answers the created channels in creation order. `callerRole` decides whether a copy may go to a new destination without its key. */
export async function createChannels(dependencies: Dependencies, input: z.infer<typeof createChannelSchema>, callerRole: number): Promise<ChannelView[]> {
	const { store } = dependencies
	requireKnownType(input.type)
	const keys = await storedKeys(dependencies, input, callerRole)
	if (keys.length === 0) throw badRequest(CHANNEL_MESSAGES.nameAndKeyRequired)
	const shared = newChannelColumns(input, nowSeconds())
	const values = keys.map((key, index) => ({ ...shared, name: batchName(input.name, index), key }))
	const created = await store.transaction(function* (tx, tables) {
		const inserted = yield* rows(tx.insert(tables.channels).values(values).returning(columnsWithoutKey(tables)))
		yield* rebuildAbilities(tx, tables, inserted.map((channel) => channel.id))
		return inserted
	})
	dependencies.changes.notify('channels')
	return created.sort((left, right) => left.id - right.id).map(toChannelView)
}

/**
 * The encrypted keys to create channels with: the given ones, or the key of `copy_from` — whose
 * copy goes where the source's key goes, unless the caller may redirect stored keys.
 */
async function storedKeys({ store, secrets }: Dependencies, input: z.infer<typeof createChannelSchema>, callerRole: number): Promise<string[]> {
	if (input.key) return (input.mode === CREATE_MODE.batch ? batchKeys(input.key) : [input.key]).map((key) => secrets.encrypt(key))
	if (!input.copy_from) return []
	const { channels } = store.tables
	const [source] = await store.db.select({ key: channels.key, type: channels.type, baseUrl: channels.baseUrl, other: channels.other })
		.from(channels).where(eq(channels.id, input.copy_from))
	if (!source) throw refused(CHANNEL_MESSAGES.notFound)
	checkKeyDestination(
		{ type: source.type, base_url: source.baseUrl, other: source.other },
		{ type: input.type, base_url: input.base_url ?? '', other: input.other ?? '' },
		callerRole,
	)
	// AES-GCM with a random nonce and no associated data: the copy may share the ciphertext.
	return [source.key]
}

/** An empty key keeps the stored one, which then may go only where it went before (see createChannels on `callerRole`). */
export async function updateChannel(dependencies: Dependencies, input: z.infer<typeof updateChannelSchema>, callerRole: number): Promise<ChannelView> {
	const { store, secrets } = dependencies
	requireKnownType(input.type)
	const now = nowSeconds()
	const updated = await store.transaction(function* (tx, tables) {
		const { channels } = tables
		const [current] = yield* rows(tx.select().from(channels).where(eq(channels.id, input.id)))
		if (!current) throw refused(CHANNEL_MESSAGES.notFound)
		const columns = changedColumns(current, input, now)
		if (!input.key) {
			const before = { type: current.type, base_url: current.baseUrl, other: current.other }
			checkKeyDestination(before, { type: columns.type ?? before.type, base_url: columns.baseUrl ?? before.base_url, other: columns.other ?? before.other }, callerRole)
		}
		if (input.key) columns.key = secrets.encrypt(input.key)
		const [channel] = Object.keys(columns).length
			? yield* rows(tx.update(channels).set(columns).where(eq(channels.id, current.id)).returning(columnsWithoutKey(tables)))
			: [current]
		yield* rebuildAbilities(tx, tables, [current.id])
		return channel!
	})
	dependencies.changes.notify('channels')
	return toChannelView(updated)
}

export async function deleteChannel(dependencies: Dependencies, id: number) {
	const deleted = await deleteWhere(dependencies, (tables) => eq(tables.channels.id, id))
	if (deleted === 0) throw refused(CHANNEL_MESSAGES.notFound)
}

/** Deletes the given channels (unknown ids are skipped); answers how many were deleted. */
export function deleteChannels(dependencies: Dependencies, ids: number[]) {
	return deleteWhere(dependencies, (tables) => inArray(tables.channels.id, ids))
}

/** Deletes every channel disabled by hand or automatically; answers how many. */
export function deleteDisabledChannels(dependencies: Dependencies) {
	return deleteWhere(dependencies, (tables) => inArray(tables.channels.status, [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled]))
}

async function deleteWhere(dependencies: Dependencies, condition: (tables: Tables) => SQL) {
	const deleted = await dependencies.store.transaction(function* (tx, tables) {
		const gone = yield* rows(tx.delete(tables.channels).where(condition(tables)).returning({ id: tables.channels.id }))
		yield* deleteAbilities(tx, tables, gone.map((channel) => channel.id))
		return gone.length
	})
	if (deleted > 0) dependencies.changes.notify('channels')
	return deleted
}

/** `POST /api/channel/fix`: rebuilds every ability from the channels; answers how many channels had wrong abilities. */
export async function fixAbilities(dependencies: Dependencies): Promise<number> {
	const rebuilt = await dependencies.store.transaction(rebuildAllAbilities)
	dependencies.changes.notify('channels')
	return rebuilt
}

export async function configuredModels({ store }: Dependencies): Promise<ChannelModelEntry[]> {
	const { channels } = store.tables
	const configured = await store.db.selectDistinct({ models: channels.models }).from(channels)
	const names = new Set(configured.flatMap((channel) => splitList(channel.models)))
	return [...names].sort().map((id) => ({ id }))
}
