/**
 * The keys of a multi-key channel: add more, enable or disable one by hand, delete one. Each
 * change is one transaction with its audit line, and then tells the routing table. A key is never
 * answered again: only its index, hint and health.
 */
import { and, count, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { CHANNEL_KEYS_MAX, CHANNEL_MESSAGES, type addChannelKeysSchema, type ChannelKeysAdded, type ChannelKeyView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { type Language, withValues } from '@shared/messages'
import { rows, run, type Database, type Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { isUniqueViolation } from '@/db/unique-violation'
import {
	enableChannelOfKeys, enabledKeyCount, insertChannelKeys, lockChannel, refreshPrimaryKey, storedKeyReason, type KeyRef,
} from '@/db/stores/channel-keys'
import { isMultiKey } from '@/db/stores/channels'
import { badRequest, refused } from '../errors'
import { adminActionWork, named, type AdminActor } from '../admin-audit'
import { DISABLED_BY_ADMINISTRATOR } from './fields'
import { sealedKeyList } from './service'
import { keyColumnsWithoutSecret, toKeyView } from './view'

/** Unit of work: the multi-key channel, or the refusal for a missing or single-key one. */
function* multiKeyChannel(tx: Database, tables: Tables, channelId: number) {
	const channel = yield* lockChannel(tx, tables, channelId)
	if (!channel) throw refused(CHANNEL_MESSAGES.notFound)
	if (!isMultiKey(channel)) throw refused(CHANNEL_MESSAGES.notMultiKey)
	return channel
}

function* storedKey(tx: Database, tables: Tables, { channelId, index }: KeyRef) {
	const { channelKeys } = tables
	const [key] = yield* rows(tx.select(keyColumnsWithoutSecret(tables)).from(channelKeys)
		.where(and(eq(channelKeys.channelId, channelId), eq(channelKeys.position, index))))
	if (!key) throw refused(withValues(CHANNEL_MESSAGES.keyNotFound, { index }))
	return key
}

/** Refuses taking away the last enabled key of an enabled channel: it would silently drop out of routing. */
function* keepOneEnabledKey(tx: Database, tables: Tables, channel: { id: number; status: number }, keyStatus: number) {
	if (channel.status !== CHANNEL_STATUS.enabled || keyStatus !== CHANNEL_STATUS.enabled) return
	if ((yield* enabledKeyCount(tx, tables, channel.id)) <= 1) throw refused(CHANNEL_MESSAGES.lastEnabledKey)
}

/**
 * Adds the keys of `input.key` (read as on creation) to a multi-key channel; keys it already has
 * and repeats are left out and counted. Refused past CHANNEL_KEYS_MAX keys in all.
 */
export async function addChannelKeys(dependencies: Dependencies, channelId: number, input: z.infer<typeof addChannelKeysSchema>, actor: AdminActor): Promise<ChannelKeysAdded> {
	const { store, secrets } = dependencies
	const { channels } = store.tables
	const [found] = await store.db.select({ type: channels.type, mode: channels.mode }).from(channels).where(eq(channels.id, channelId))
	if (!found) throw refused(CHANNEL_MESSAGES.notFound)
	if (!isMultiKey(found)) throw refused(CHANNEL_MESSAGES.notMultiKey)
	const list = await sealedKeyList(secrets, input.key, found.type)
	if (list.keys.length === 0) throw badRequest(CHANNEL_MESSAGES.nameAndKeyRequired)
	const add = () => store.transaction(function* (tx, tables) {
		const channel = yield* multiKeyChannel(tx, tables, channelId)
		const added = yield* insertChannelKeys(tx, tables, channelId, list.keys)
		const [stored] = yield* rows(tx.select({ value: count() }).from(tables.channelKeys).where(eq(tables.channelKeys.channelId, channelId)))
		const total = Number(stored?.value ?? 0)
		if (total > CHANNEL_KEYS_MAX) throw badRequest(withValues(CHANNEL_MESSAGES.keysTooMany, { max: CHANNEL_KEYS_MAX, count: total }))
		if (added.indexes.length > 0) {
			const target = named(channel.id, channel.name)
			yield* adminActionWork(tx, tables, actor, {
				action: 'channel.update', target, summary: `edited channel ${target}: added ${added.indexes.length} key(s)`,
				details: { fields: `keys +${added.indexes.length}`, keys_added: added.indexes.length },
			})
		}
		return { indexes: added.indexes, duplicates: added.duplicates + list.duplicates }
	})
	let result: ChannelKeysAdded
	try {
		result = await add()
	} catch (error) {
		// Another request stored one of these keys at the same moment: once more, it is then a repeat.
		if (!isUniqueViolation(error)) throw error
		result = await add()
	}
	if (result.indexes.length > 0) dependencies.changes.notify('channels')
	return result
}

/**
 * Enables (1) or disables by hand (2) one key of a multi-key channel; answers the key. Enabling a
 * key brings back its channel when that was auto-disabled only because all its keys were.
 */
export async function setChannelKeyStatus(
	dependencies: Dependencies, ref: KeyRef, status: typeof CHANNEL_STATUS.enabled | typeof CHANNEL_STATUS.manuallyDisabled, actor: AdminActor, language: Language,
): Promise<ChannelKeyView> {
	const now = nowSeconds()
	const { key, changed } = await dependencies.store.transaction(function* (tx, tables) {
		const channel = yield* multiKeyChannel(tx, tables, ref.channelId)
		const current = yield* storedKey(tx, tables, ref)
		if (current.status === status) return { key: current, changed: false }
		if (status === CHANNEL_STATUS.manuallyDisabled) yield* keepOneEnabledKey(tx, tables, channel, current.status)
		const { channelKeys } = tables
		const enabling = status === CHANNEL_STATUS.enabled
		const [updated] = yield* rows(tx.update(channelKeys)
			.set(enabling ? { status, statusReason: '', statusTime: 0 } : { status, statusReason: storedKeyReason(DISABLED_BY_ADMINISTRATOR), statusTime: now })
			.where(and(eq(channelKeys.channelId, ref.channelId), eq(channelKeys.position, ref.index)))
			.returning(keyColumnsWithoutSecret(tables)))
		if (enabling) yield* enableChannelOfKeys(tx, tables, ref.channelId)
		const target = named(channel.id, channel.name)
		yield* adminActionWork(tx, tables, actor, {
			action: 'channel.update', target, summary: `edited channel ${target}: key #${ref.index} ${enabling ? 'enabled' : 'disabled'}`,
			details: { fields: `key #${ref.index} status ${status}`, key: ref.index, status },
		})
		return { key: updated!, changed: true }
	})
	if (changed) dependencies.changes.notify('channels')
	return toKeyView(key, language)
}

/** Deletes one key of a multi-key channel; refused for its last key, or the last enabled key of an enabled channel. */
export async function deleteChannelKey(dependencies: Dependencies, ref: KeyRef, actor: AdminActor): Promise<void> {
	await dependencies.store.transaction(function* (tx, tables) {
		const channel = yield* multiKeyChannel(tx, tables, ref.channelId)
		const current = yield* storedKey(tx, tables, ref)
		const { channelKeys } = tables
		const [stored] = yield* rows(tx.select({ value: count() }).from(channelKeys).where(eq(channelKeys.channelId, ref.channelId)))
		if (Number(stored?.value ?? 0) <= 1) throw refused(CHANNEL_MESSAGES.lastKey)
		yield* keepOneEnabledKey(tx, tables, channel, current.status)
		yield* run(tx.delete(channelKeys).where(and(eq(channelKeys.channelId, ref.channelId), eq(channelKeys.position, ref.index))))
		// `channels.key` may have been this key's copy.
		yield* refreshPrimaryKey(tx, tables, ref.channelId)
		const target = named(channel.id, channel.name)
		yield* adminActionWork(tx, tables, actor, {
			action: 'channel.update', target, summary: `edited channel ${target}: key #${ref.index} deleted`,
			details: { fields: `key #${ref.index} deleted`, key: ref.index },
		})
	})
	dependencies.changes.notify('channels')
}
