/**
 * The keys of multi-key channels (`channel_keys`) and their status, as the management API, the
 * channel tools, the import and the relay's key router need them. A key is named by its channel
 * and `#index`; a single-key channel's one key is index 0 and its status is the channel's own, so
 * the functions the router calls act on the channel there.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import { keyHint } from '@shared/channel-keys'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { inEnglish, nested } from '@shared/messages'
import { statusReason, statusReasonMessage, storedStatusReason, type StatusReason } from '@shared/messages/channel-status'
import { rows, run, type Database, type Store, type Tables } from '@/db'
import type { ChangeFeed } from '@/lib/change-feed'
import type { SecretBox } from '@/lib/crypto'
import { nowSeconds } from '@/lib/clock'
import { autoDisableChannel, enableAutoDisabledChannelWork, isMultiKey, parseJsonObject } from './channels'

export type ChannelKeyRecord = Tables['channelKeys']['$inferSelect']

/** A key of a channel: its channel and `#index` (0 for a single-key channel's own key). */
export interface KeyRef {
	channelId: number
	index: number
}

/** What a status change did: to the key, and to its channel (all its keys gone, or one back). */
export interface KeyStatusChange {
	key: boolean
	channel: boolean
}

const NO_CHANGE: KeyStatusChange = { key: false, channel: false }

/** A key about to be stored: sealed, with its digest and hint; status and the rest as imported, else enabled. */
export interface NewChannelKey {
	key: string
	digest: string
	hint: string
	status?: number
	statusReason?: string
	statusTime?: number
	/** The import keeps new-api's indexes; otherwise the next free ones are taken. */
	index?: number
}

export function sealKey(secrets: SecretBox, key: string): NewChannelKey {
	return { key: secrets.encrypt(key), digest: secrets.digest(key), hint: keyHint(key) }
}

/** `status_reason` of a key, like a channel's `other_info` reason: the English wording and the code to word it again. */
export const storedKeyReason = (reason: StatusReason) =>
	JSON.stringify({ status_reason: inEnglish(statusReasonMessage(reason)), status_reason_line: reason })

/** A reason stored without a code (imported): shown as it is. */
export const uncodedKeyReason = (text: string) => (text ? JSON.stringify({ status_reason: text }) : '')

/** Rows per statement, well inside both dialects' limits on bound parameters. */
const CHUNK = 500

/**
 * Unit of work: stores the keys on the channel, leaving out those it already has (by digest) and
 * repeats among them; answers the indexes given, in order, and how many were left out. Indexes
 * come from `channels.next_key_index`, which only grows. A multi-key channel's `channels.key`
 * stays the sealed copy of its lowest-index key (the caller sets it for a new channel).
 */
export function* insertChannelKeys(tx: Database, tables: Tables, channelId: number, keys: readonly NewChannelKey[]) {
	const { channels, channelKeys } = tables
	// Keys added at the same moment by another request are seen once it is done.
	if (!(yield* lockChannel(tx, tables, channelId))) return { indexes: [] as number[], duplicates: keys.length }
	const known = new Set<string>()
	for (let start = 0; start < keys.length; start += CHUNK) {
		const digests = keys.slice(start, start + CHUNK).map((key) => key.digest)
		const found = yield* rows(tx.select({ digest: channelKeys.digest }).from(channelKeys)
			.where(and(eq(channelKeys.channelId, channelId), inArray(channelKeys.digest, digests))))
		for (const { digest } of found) known.add(digest)
	}
	const fresh: NewChannelKey[] = []
	for (const key of keys) {
		if (known.has(key.digest)) continue
		known.add(key.digest)
		fresh.push(key)
	}
	if (fresh.length === 0) return { indexes: [] as number[], duplicates: keys.length }
	const highestGiven = fresh.reduce((highest, key) => Math.max(highest, key.index ?? -1), -1)
	const taken = fresh.filter((key) => key.index === undefined).length
	const [channel] = yield* rows(tx.update(channels)
		.set({ nextKeyIndex: nextIndexAfter(tables, highestGiven + 1, taken) })
		.where(eq(channels.id, channelId)).returning({ next: channels.nextKeyIndex }))
	if (!channel) return { indexes: [] as number[], duplicates: keys.length }
	let next = channel.next - taken
	const now = nowSeconds()
	const values = fresh.map((key) => ({
		channelId,
		position: key.index ?? next++,
		key: key.key,
		digest: key.digest,
		hint: key.hint,
		status: key.status ?? CHANNEL_STATUS.enabled,
		statusReason: key.statusReason ?? '',
		statusTime: key.statusTime ?? 0,
		createdTime: now,
	}))
	for (let start = 0; start < values.length; start += CHUNK) yield* run(tx.insert(channelKeys).values(values.slice(start, start + CHUNK)))
	return { indexes: values.map((value) => value.position), duplicates: keys.length - fresh.length }
}

/**
 * `next_key_index` after taking `taken` new indexes, and at least `floor` (past the indexes an
 * import brought): greatest(next_key_index, floor) + taken, as SQL on both dialects.
 */
function nextIndexAfter({ channels }: Tables, floor: number, taken: number) {
	return sql`(case when ${channels.nextKeyIndex} > ${floor} then ${channels.nextKeyIndex} else ${floor} end) + ${taken}`
}

/** Unit of work: the channel's lowest-index key, sealed, into `channels.key` (the copy readers of one key use). */
export function* refreshPrimaryKey(tx: Database, tables: Tables, channelId: number) {
	const { channels, channelKeys } = tables
	const [lowest] = yield* rows(tx.select({ key: channelKeys.key }).from(channelKeys)
		.where(eq(channelKeys.channelId, channelId)).orderBy(asc(channelKeys.position)).limit(1))
	if (lowest) yield* run(tx.update(channels).set({ key: lowest.key }).where(eq(channels.id, channelId)))
}

/** Unit of work: the keys of deleted channels go with them. */
export function* deleteChannelKeys(tx: Database, tables: Tables, channelIds: readonly number[]) {
	for (let start = 0; start < channelIds.length; start += CHUNK) {
		yield* run(tx.delete(tables.channelKeys).where(inArray(tables.channelKeys.channelId, channelIds.slice(start, start + CHUNK))))
	}
}

/** Unit of work: how many of the channel's keys are enabled. */
export function* enabledKeyCount(tx: Database, tables: Tables, channelId: number) {
	const { channelKeys } = tables
	const [found] = yield* rows(tx.select({ value: count() }).from(channelKeys)
		.where(and(eq(channelKeys.channelId, channelId), eq(channelKeys.status, CHANNEL_STATUS.enabled))))
	return Number(found?.value ?? 0)
}

/** Whether an auto-disabled channel is so only because all its keys were auto-disabled. */
export function disabledForItsKeys(otherInfo: string): boolean {
	return storedStatusReason(parseJsonObject(otherInfo).status_reason_line)?.code === 'keys.all_disabled'
}

/**
 * Unit of work: after a key of the channel came back, the channel too when it was auto-disabled
 * only because all its keys were. Answers whether the channel came back.
 */
export function* enableChannelOfKeys(tx: Database, tables: Tables, channelId: number) {
	const { channels } = tables
	const [channel] = yield* rows(tx.select({ status: channels.status, otherInfo: channels.otherInfo }).from(channels).where(eq(channels.id, channelId)))
	if (!channel || channel.status !== CHANNEL_STATUS.autoDisabled || !disabledForItsKeys(channel.otherInfo)) return false
	return yield* enableAutoDisabledChannelWork(tx, tables, channelId)
}

/**
 * Unit of work: the channel, its row locked for the rest of the transaction (a write that changes
 * nothing), or undefined when it is gone. Every change to a channel's keys takes it first: two
 * keys changing at once then count each other's change, so the last enabled key cannot slip away
 * unnoticed between them (Postgres; SQLite runs one transaction at a time anyway).
 */
export function* lockChannel(tx: Database, tables: Tables, channelId: number) {
	const { channels } = tables
	const [channel] = yield* rows(tx.update(channels).set({ mode: sql`${channels.mode}` }).where(eq(channels.id, channelId))
		.returning({ id: channels.id, name: channels.name, mode: channels.mode, status: channels.status, type: channels.type }))
	return channel
}

function* channelMode(tx: Database, tables: Tables, channelId: number) {
	const channel = yield* lockChannel(tx, tables, channelId)
	return channel ? (isMultiKey(channel) ? 'multi' : 'single') : undefined
}

/**
 * Auto-disables one enabled key (status 3) with the reason and time; when that leaves the channel
 * no enabled key, the channel is auto-disabled too, with a reason saying all its keys are (and
 * which was last, and why). For a single-key channel, index 0 is the channel: it is auto-disabled.
 * Checking `auto_ban` and the auto-disable option is the caller's business. Tells the routing
 * table ('channels') of any change; a key not enabled (or gone) changes nothing.
 */
export async function markKeyAutoDisabled(store: Store, ref: KeyRef, reason: StatusReason, changes: ChangeFeed): Promise<KeyStatusChange> {
	const now = nowSeconds()
	const change = await store.transaction(function* (tx, tables) {
		const mode = yield* channelMode(tx, tables, ref.channelId)
		if (mode === undefined) return NO_CHANGE
		if (mode === 'single') {
			const disabled = ref.index === 0 && (yield* autoDisableChannel(tx, tables, ref.channelId, reason, now))
			return { key: disabled, channel: disabled }
		}
		const { channelKeys } = tables
		const isEnabledKey = and(eq(channelKeys.channelId, ref.channelId), eq(channelKeys.position, ref.index), eq(channelKeys.status, CHANNEL_STATUS.enabled))
		const [updated] = yield* rows(tx.update(channelKeys)
			.set({ status: CHANNEL_STATUS.autoDisabled, statusReason: storedKeyReason(reason), statusTime: now })
			.where(isEnabledKey).returning({ id: channelKeys.id }))
		if (!updated) return NO_CHANGE
		if ((yield* enabledKeyCount(tx, tables, ref.channelId)) > 0) return { key: true, channel: false }
		const allKeys = statusReason('keys.all_disabled', { index: ref.index, reason: nested(statusReasonMessage(reason)) })
		return { key: true, channel: yield* autoDisableChannel(tx, tables, ref.channelId, allKeys, now) }
	})
	if (change.key || change.channel) changes.notify('channels')
	return change
}

/**
 * Enables one auto-disabled key (status 3 → 1), clearing its reason, and its channel when that was
 * auto-disabled only because all its keys were. For a single-key channel, index 0 is the channel:
 * an auto-disabled channel is enabled. A key disabled by hand stays disabled. Tells the routing
 * table of any change.
 */
export async function enableAutoDisabledKey(store: Store, ref: KeyRef, changes: ChangeFeed): Promise<KeyStatusChange> {
	const change = await store.transaction(function* (tx, tables) {
		const mode = yield* channelMode(tx, tables, ref.channelId)
		if (mode === undefined) return NO_CHANGE
		if (mode === 'single') {
			const enabled = ref.index === 0 && (yield* enableAutoDisabledChannelWork(tx, tables, ref.channelId))
			return { key: enabled, channel: enabled }
		}
		const { channelKeys } = tables
		const [updated] = yield* rows(tx.update(channelKeys)
			.set({ status: CHANNEL_STATUS.enabled, statusReason: '', statusTime: 0 })
			.where(and(eq(channelKeys.channelId, ref.channelId), eq(channelKeys.position, ref.index), eq(channelKeys.status, CHANNEL_STATUS.autoDisabled)))
			.returning({ id: channelKeys.id }))
		if (!updated) return NO_CHANGE
		return { key: true, channel: yield* enableChannelOfKeys(tx, tables, ref.channelId) }
	})
	if (change.key || change.channel) changes.notify('channels')
	return change
}
