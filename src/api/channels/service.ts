/**
 * Creating, reading, editing and deleting channels. Every change rewrites the changed channels'
 * abilities in the same transaction and then tells the routing table (`changes.notify`).
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import {
	CHANNEL_MESSAGES, CHANNEL_MODE, CREATE_MODE, keyDestinationChanged, MULTI_KEY_MODE, splitList, type ChannelDetail, type ChannelModelEntry, type ChannelView,
	type createChannelSchema, type KeyDestination, type updateChannelSchema,
} from '@shared/channel'
import { parseKeyList } from '@shared/channel-keys'
import { CHANNEL_STATUS } from '@shared/channel-type'
import type { Language, ServerMessage } from '@shared/messages'
import { ROLE } from '@shared/user'
import { rows, run, type Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import type { SecretBox } from '@/lib/crypto'
import { badRequest, forbidden, refused } from '../errors'
import { deleteAbilities, rebuildAbilities, rebuildAllAbilities } from '@/db/stores/abilities'
import { deleteChannelKeys, enabledKeyCount, insertChannelKeys, refreshPrimaryKey, sealKey, type NewChannelKey } from '@/db/stores/channel-keys'
import { isMultiKey } from '@/db/stores/channels'
import { requireKnownType } from './channel-types'
import { batchKeys, batchName, changedColumns, newChannelColumns } from './fields'
import { channelKeyViews, columnsWithoutKey, toChannelView, toChannelViews } from './view'
import { adminActionWork, named, namedList, type AdminActor } from '../admin-audit'

export async function getChannel({ store }: Dependencies, id: number, language: Language): Promise<ChannelDetail> {
	const { channels } = store.tables
	const [channel] = await store.db.select(columnsWithoutKey(store.tables)).from(channels).where(eq(channels.id, id))
	if (!channel) throw refused(CHANNEL_MESSAGES.notFound)
	if (!isMultiKey(channel)) return { ...toChannelView(channel, language), keys: [] }
	const keys = await channelKeyViews(store, id, language)
	const counts = { total: keys.length, enabled: 0, manually_disabled: 0, auto_disabled: 0 }
	for (const key of keys) {
		if (key.status === CHANNEL_STATUS.enabled) counts.enabled++
		else if (key.status === CHANNEL_STATUS.manuallyDisabled) counts.manually_disabled++
		else if (key.status === CHANNEL_STATUS.autoDisabled) counts.auto_disabled++
	}
	return { ...toChannelView(channel, language, counts), keys }
}

/**
 * Who may send a stored key somewhere new without entering it (KeyDestination in @shared/channel):
 * the super admin only. Root owns the deployment and its keys — it entered them, and it alone
 * grants roles and outbound consent — so asking it to re-enter a key to move a channel onto a
 * proxy would guard it against itself; an admin is trusted to use keys, not to take them.
 */
const mayRedirectStoredKey = (callerRole: number) => callerRole >= ROLE.root

function checkKeyDestination(before: KeyDestination, after: KeyDestination, callerRole: number, refusal: ServerMessage = CHANNEL_MESSAGES.keyNeededForNewDestination) {
	if (!mayRedirectStoredKey(callerRole) && keyDestinationChanged(before, after)) throw forbidden(refusal)
}

/** The channels created, and how many repeated keys of a multi-key list were left out. */
export interface CreatedChannels {
	channels: ChannelView[]
	duplicates: number
}

/** What the new channels are made of: one sealed key per channel, or one multi-key channel's keys. */
type NewKeys =
	| { mode: typeof CHANNEL_MODE.single; keys: string[] }
	| { mode: typeof CHANNEL_MODE.multiKey; keys: NewChannelKey[]; duplicates: number; multiKeyMode?: string; nextKeyIndex?: number }

/** Answers the created channels in creation order. The actor's role decides whether a copy may go to a new destination without its key. */
export async function createChannels(dependencies: Dependencies, input: z.infer<typeof createChannelSchema>, actor: AdminActor, language: Language): Promise<CreatedChannels> {
	const { store } = dependencies
	requireKnownType(input.type)
	const made = await newKeys(dependencies, input, actor.role)
	if (made.keys.length === 0) throw badRequest(CHANNEL_MESSAGES.nameAndKeyRequired)
	const shared = newChannelColumns(input, nowSeconds())
	const values = made.mode === CHANNEL_MODE.single
		? made.keys.map((key, index) => ({ ...shared, name: batchName(input.name, index), key }))
		: [{
			...shared, name: input.name, key: made.keys[0]!.key, mode: CHANNEL_MODE.multiKey,
			multiKeyMode: input.multi_key_mode ?? made.multiKeyMode ?? MULTI_KEY_MODE.random, nextKeyIndex: made.nextKeyIndex ?? 0,
		}]
	const created = await store.transaction(function* (tx, tables) {
		const inserted = yield* rows(tx.insert(tables.channels).values(values).returning(columnsWithoutKey(tables)))
		if (made.mode === CHANNEL_MODE.multiKey) {
			yield* insertChannelKeys(tx, tables, inserted[0]!.id, made.keys)
			yield* refreshPrimaryKey(tx, tables, inserted[0]!.id)
		}
		yield* rebuildAbilities(tx, tables, inserted.map((channel) => channel.id))
		const targets = namedList(inserted)
		yield* adminActionWork(tx, tables, actor, {
			action: 'channel.create', target: targets, summary: `created channel ${targets}${input.copy_from ? ` as a copy of channel #${input.copy_from}` : ''}`,
			details: {
				count: inserted.length, type: input.type, ...(input.copy_from ? { copy_from: input.copy_from } : {}),
				...(made.mode === CHANNEL_MODE.multiKey ? { keys: made.keys.length } : {}),
			},
		})
		return inserted
	})
	dependencies.changes.notify('channels')
	const sorted = created.sort((left, right) => left.id - right.id)
	return { channels: await toChannelViews(store, sorted, language), duplicates: made.mode === CHANNEL_MODE.multiKey ? made.duplicates : 0 }
}

/** Keys sealed between two turns of the event loop: 10 000 of them take tens of milliseconds. */
const SEAL_CHUNK = 500
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A multi-key list read and sealed; a problem in it is the caller's 400. */
export async function sealedKeyList(secrets: SecretBox, text: string, type: number): Promise<{ keys: NewChannelKey[]; duplicates: number }> {
	const parsed = parseKeyList(text, type)
	if (!parsed.ok) throw badRequest(parsed.problem)
	const keys: NewChannelKey[] = []
	for (let start = 0; start < parsed.list.keys.length; start += SEAL_CHUNK) {
		if (start > 0) await nextTurn()
		for (const key of parsed.list.keys.slice(start, start + SEAL_CHUNK)) keys.push(sealKey(secrets, key))
	}
	return { keys, duplicates: parsed.list.duplicates }
}

/**
 * The keys to create channels with: the given ones, or the key(s) of `copy_from` — whose copy goes
 * where the source's keys go, unless the caller may redirect stored keys. A copy of a multi-key
 * channel is one too, with the same keys at the same indexes and statuses.
 */
async function newKeys({ store, secrets }: Dependencies, input: z.infer<typeof createChannelSchema>, callerRole: number): Promise<NewKeys> {
	if (input.key) {
		if (input.mode === CREATE_MODE.multiKey) return { mode: CHANNEL_MODE.multiKey, ...await sealedKeyList(secrets, input.key, input.type) }
		return { mode: CHANNEL_MODE.single, keys: (input.mode === CREATE_MODE.batch ? batchKeys(input.key) : [input.key]).map((key) => secrets.encrypt(key)) }
	}
	if (!input.copy_from) return { mode: CHANNEL_MODE.single, keys: [] }
	const { channels, channelKeys } = store.tables
	const [source] = await store.db.select({
		key: channels.key, type: channels.type, baseUrl: channels.baseUrl, other: channels.other, mode: channels.mode,
		multiKeyMode: channels.multiKeyMode, nextKeyIndex: channels.nextKeyIndex,
	}).from(channels).where(eq(channels.id, input.copy_from))
	if (!source) throw refused(CHANNEL_MESSAGES.notFound)
	checkKeyDestination(
		{ type: source.type, base_url: source.baseUrl, other: source.other },
		{ type: input.type, base_url: input.base_url ?? '', other: input.other ?? '' },
		callerRole,
	)
	// AES-GCM with a random nonce and no associated data: the copy may share the ciphertext.
	if (!isMultiKey(source)) return { mode: CHANNEL_MODE.single, keys: [source.key] }
	const sourceKeys = await store.db.select().from(channelKeys).where(eq(channelKeys.channelId, input.copy_from)).orderBy(asc(channelKeys.position))
	return {
		mode: CHANNEL_MODE.multiKey,
		keys: sourceKeys.map((key) => ({
			key: key.key, digest: key.digest, hint: key.hint, status: key.status, statusReason: key.statusReason, statusTime: key.statusTime, index: key.position,
		})),
		duplicates: 0,
		multiKeyMode: source.multiKeyMode,
		nextKeyIndex: source.nextKeyIndex,
	}
}

/** Channel columns by the field names the API and the audit trail use. */
const FIELD_OF_COLUMN: Record<string, string> = {
	baseUrl: 'base_url', modelMapping: 'model_mapping', statusCodeMapping: 'status_code_mapping', openaiOrganization: 'openai_organization',
	maxInputTokens: 'max_input_tokens', testModel: 'test_model', autoBan: 'auto_ban', otherInfo: 'other_info', multiKeyMode: 'multi_key_mode',
	costRatio: 'cost_ratio', modelCost: 'model_cost', scheduledTestEnabled: 'scheduled_test_enabled',
}

/**
 * An empty key keeps the stored one, which then may go only where it went before (see
 * createChannels on the actor's role). A multi-key channel takes no key here, and only the super
 * admin may send its keys somewhere new. Enabling by hand a multi-key channel none of whose keys
 * is enabled brings its auto-disabled keys back with it (else it would stay out of routing).
 */
export async function updateChannel(dependencies: Dependencies, input: z.infer<typeof updateChannelSchema>, actor: AdminActor, language: Language): Promise<ChannelView> {
	const callerRole = actor.role
	const { store, secrets } = dependencies
	requireKnownType(input.type)
	const now = nowSeconds()
	const updated = await store.transaction(function* (tx, tables) {
		const { channels } = tables
		const [current] = yield* rows(tx.select().from(channels).where(eq(channels.id, input.id)))
		if (!current) throw refused(CHANNEL_MESSAGES.notFound)
		const multiKey = isMultiKey(current)
		if (multiKey && input.key) throw badRequest(CHANNEL_MESSAGES.multiKeyKeysApart)
		const columns = changedColumns(current, input, now)
		if (!input.key) {
			const before = { type: current.type, base_url: current.baseUrl, other: current.other }
			const after = { type: columns.type ?? before.type, base_url: columns.baseUrl ?? before.base_url, other: columns.other ?? before.other }
			checkKeyDestination(before, after, callerRole, multiKey ? CHANNEL_MESSAGES.multiKeyDestinationRootOnly : CHANNEL_MESSAGES.keyNeededForNewDestination)
		}
		if (input.key) columns.key = secrets.encrypt(input.key)
		// Which fields changed (the key by name only); `other_info` follows the status and is not a field of its own.
		const changed = Object.entries(columns)
			.filter(([column, value]) => column !== 'otherInfo' && (column === 'key' || current[column as keyof typeof current] !== value))
			.map(([column]) => FIELD_OF_COLUMN[column] ?? column)
		const [channel] = Object.keys(columns).length
			? yield* rows(tx.update(channels).set(columns).where(eq(channels.id, current.id)).returning(columnsWithoutKey(tables)))
			: [current]
		if (multiKey && columns.status === CHANNEL_STATUS.enabled && (yield* enabledKeyCount(tx, tables, current.id)) === 0) {
			const { channelKeys } = tables
			yield* run(tx.update(channelKeys).set({ status: CHANNEL_STATUS.enabled, statusReason: '', statusTime: 0 })
				.where(and(eq(channelKeys.channelId, current.id), eq(channelKeys.status, CHANNEL_STATUS.autoDisabled))))
		}
		yield* rebuildAbilities(tx, tables, [current.id])
		if (changed.length > 0) {
			const target = named(current.id, channel!.name)
			yield* adminActionWork(tx, tables, actor, {
				action: 'channel.update', target, summary: `edited channel ${target}: ${changed.join(', ')}${columns.status ? ` (status now ${columns.status})` : ''}`,
				details: { fields: changed.join(','), ...(columns.status ? { status: columns.status } : {}) },
			})
		}
		return channel!
	})
	dependencies.changes.notify('channels')
	return (await toChannelViews(store, [updated], language))[0]!
}

export async function deleteChannel(dependencies: Dependencies, id: number, actor: AdminActor) {
	const deleted = await deleteWhere(dependencies, (tables) => eq(tables.channels.id, id), actor, 'channel.delete')
	if (deleted === 0) throw refused(CHANNEL_MESSAGES.notFound)
}

/** Deletes the given channels (unknown ids are skipped); answers how many were deleted. */
export function deleteChannels(dependencies: Dependencies, ids: number[], actor: AdminActor) {
	return deleteWhere(dependencies, (tables) => inArray(tables.channels.id, ids), actor, 'channel.delete_batch')
}

/** Deletes every channel disabled by hand or automatically; answers how many. */
export function deleteDisabledChannels(dependencies: Dependencies, actor: AdminActor) {
	return deleteWhere(dependencies, (tables) => inArray(tables.channels.status, [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled]), actor, 'channel.delete_disabled')
}

async function deleteWhere(dependencies: Dependencies, condition: (tables: Tables) => SQL, actor: AdminActor, action: 'channel.delete' | 'channel.delete_batch' | 'channel.delete_disabled') {
	const deleted = await dependencies.store.transaction(function* (tx, tables) {
		const gone = yield* rows(tx.delete(tables.channels).where(condition(tables)).returning({ id: tables.channels.id, name: tables.channels.name }))
		yield* deleteAbilities(tx, tables, gone.map((channel) => channel.id))
		yield* deleteChannelKeys(tx, tables, gone.map((channel) => channel.id))
		if (gone.length > 0) {
			const target = namedList(gone)
			yield* adminActionWork(tx, tables, actor, {
				action, target, summary: `deleted ${action === 'channel.delete_disabled' ? 'the disabled ' : ''}channel ${target}`, details: { count: gone.length },
			})
		}
		return gone.length
	})
	if (deleted > 0) dependencies.changes.notify('channels')
	return deleted
}

/** `POST /api/channel/fix`: rebuilds every ability from the channels; answers how many channels had wrong abilities. */
export async function fixAbilities(dependencies: Dependencies, actor: AdminActor): Promise<number> {
	const rebuilt = await dependencies.store.transaction(function* (tx, tables) {
		const count = yield* rebuildAllAbilities(tx, tables)
		yield* adminActionWork(tx, tables, actor, { action: 'channel.fix', target: '', summary: `fixed the abilities of ${count} channel(s)`, details: { count } })
		return count
	})
	dependencies.changes.notify('channels')
	return rebuilt
}

export async function configuredModels({ store }: Dependencies): Promise<ChannelModelEntry[]> {
	const { channels } = store.tables
	const configured = await store.db.selectDistinct({ models: channels.models }).from(channels)
	const names = new Set(configured.flatMap((channel) => splitList(channel.models)))
	return [...names].sort().map((id) => ({ id }))
}
