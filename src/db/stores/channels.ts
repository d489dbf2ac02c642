/**
 * Channels as the relay and the management API both need them: the stored record, the routing
 * table's source, auto-disabling, and the `other_info` upkeep of a status change.
 */
import { createHash } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { CHANNEL_MODE, MULTI_KEY_MODE, splitList, type ChannelMode, type MultiKeyMode } from '@shared/channel-constants'
import { CHANNEL_STATUS } from '@shared/channel-type'
import type { ChannelCost, ModelCost } from '@shared/channel-cost'
import { readChannelSetting, type ChannelSetting } from '@shared/channel-setting'
import { inEnglish } from '@shared/messages'
import { statusReasonMessage, type StatusReason } from '@shared/messages/channel-status'
import { rows, type Database, type Store, type Tables } from '@/db'
import type { ChangeFeed } from '@/lib/change-feed'
import type { SecretBox } from '@/lib/crypto'
import { nowSeconds } from '@/lib/clock'
import { rebuildAbilities } from './abilities'

export type ChannelRecord = Tables['channels']['$inferSelect']

/** A JSON object, or `{}` for empty text, bad JSON or any other JSON value. */
export function parseJsonObject(text: string): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(text)
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {}
	} catch {
		return {}
	}
}

/**
 * `other_info` for a channel entering `status`: enabling clears the reason and time, disabling
 * records them (the reason's English wording and its code, `@shared/messages/channel-status`).
 * Other keys in `other_info` are kept.
 */
export function withStatusInfo(otherInfo: string, status: number, reason: StatusReason | undefined, time: number): string {
	const { status_reason: _reason, status_reason_line: _line, status_time: _time, ...rest } = parseJsonObject(otherInfo)
	const info = status === CHANNEL_STATUS.enabled || !reason
		? rest
		: { ...rest, status_reason: inEnglish(statusReasonMessage(reason)), status_reason_line: reason, status_time: time }
	return Object.keys(info).length ? JSON.stringify(info) : ''
}

/** One key of a channel, decrypted: keep it in memory only, never in a log line or an answer. */
export interface ChannelKey {
	/** The key's `#index`: 0 for a single-key channel, `channel_keys.position` for a multi-key one. */
	index: number
	key: string
}

export interface RoutableChannel {
	id: number
	type: number
	name: string
	/** Decrypted: keep it in memory only, never in a log line or an answer. For a multi-key channel, its first usable key. */
	key: string
	mode: ChannelMode
	multiKeyMode: MultiKeyMode
	/**
	 * The usable (enabled) keys in index order: a single-key channel's own key as index 0; a
	 * multi-key channel's enabled keys, when the reader loaded them (empty otherwise).
	 */
	keys: ChannelKey[]
	baseUrl: string
	other: string
	organization: string
	models: string[]
	groups: string[]
	priority: number
	weight: number
	modelMapping: Record<string, string>
	statusCodeMapping: Record<string, string>
	autoBan: boolean
	/** The known keys of `channels.setting` (shared/channel-setting.ts), as the relay applies them. */
	setting: ChannelSetting
	/** The longest prompt (tokens, as Ferry counts it) the channel is given; 0 for no limit. */
	maxInputTokens: number
	testModel: string
	/** What the operator pays for calls on it (billing/cost.ts). */
	cost: ChannelCost
	/** A short hash of the settings that shape what its upstream is asked and answers (settingsFingerprint). */
	settingsFingerprint: string
}

/**
 * A short hash of a channel's settings that change what its upstream is asked or how the answer is
 * made: its type (the adaptor), base URL, `other` (API version, region, …), organization and extra
 * setting (system prompt, force format, thinking to content, body pass-through). The response cache
 * uses an entry only while the channel's hash is the one it was made under. Left out: what only
 * routes (name, groups, models, priority, weight, limits), the model mapping (the cache compares the
 * mapped model itself), error status mapping (errors are never kept) and the keys (a multi-key
 * channel's keys answer alike).
 */
export function settingsFingerprint(channel: Pick<RoutableChannel, 'type' | 'baseUrl' | 'other' | 'organization' | 'setting'>): string {
	const material = JSON.stringify([channel.type, channel.baseUrl, channel.other, channel.organization, channel.setting])
	return createHash('sha256').update(material).digest('base64url').slice(0, 16)
}

/** The stored cost fields; a `model_cost` that is not an object of prices reads as none (it is checked when saved). */
export function readChannelCost(costRatio: number | null, modelCost: string): ChannelCost {
	const models: Record<string, ModelCost> = {}
	for (const [model, price] of Object.entries(parseJsonObject(modelCost))) {
		if (price && typeof price === 'object' && !Array.isArray(price)) models[model] = price as ModelCost
	}
	return { ratio: costRatio === null || !Number.isFinite(costRatio) ? undefined : costRatio, models }
}

/** Values as text: status code mappings may hold numbers (`{"429": 503}`). */
function textMap(text: string): Record<string, string> {
	return Object.fromEntries(Object.entries(parseJsonObject(text))
		.filter(([, value]) => typeof value === 'string' || typeof value === 'number')
		.map(([key, value]) => [key, String(value)]))
}

/** A sealed key of `channel_keys` as the readers load it. */
export interface SealedKey {
	index: number
	key: string
}

export const isMultiKey = (channel: Pick<ChannelRecord, 'mode'>) => channel.mode === CHANNEL_MODE.multiKey
const modeOf = (mode: string): ChannelMode => (mode === CHANNEL_MODE.multiKey ? CHANNEL_MODE.multiKey : CHANNEL_MODE.single)
const multiKeyModeOf = (mode: string): MultiKeyMode => (mode === MULTI_KEY_MODE.polling ? MULTI_KEY_MODE.polling : MULTI_KEY_MODE.random)

/**
 * The keys of a multi-key channel decrypted, in index order, leaving out one that cannot be read;
 * throws when none can (the channel is then as unreadable as a single key written under another
 * CRYPTO_SECRET).
 */
function openKeys(secrets: SecretBox, sealed: readonly SealedKey[]): ChannelKey[] {
	const opened: ChannelKey[] = []
	for (const { index, key } of [...sealed].sort((left, right) => left.index - right.index)) {
		try {
			opened.push({ index, key: secrets.decrypt(key) })
		} catch {
			// Reported with the channel when none is left.
		}
	}
	if (sealed.length > 0 && opened.length === 0) throw new Error('no key of the channel can be decrypted')
	return opened
}

/**
 * The row with its key decrypted and its fields parsed; throws when the key was written under
 * another CRYPTO_SECRET. `usableKeys`: a multi-key channel's enabled keys (sealed); without them
 * its `keys` is empty and `key` is the sealed copy `channels.key` holds (its lowest-index key).
 */
export function toRoutableChannel(secrets: SecretBox, channel: ChannelRecord, usableKeys?: readonly SealedKey[]): RoutableChannel {
	const multiKey = isMultiKey(channel)
	const keys = multiKey ? openKeys(secrets, usableKeys ?? []) : [{ index: 0, key: secrets.decrypt(channel.key) }]
	const routable: Omit<RoutableChannel, 'settingsFingerprint'> = {
		id: channel.id,
		type: channel.type,
		name: channel.name,
		key: keys[0]?.key ?? secrets.decrypt(channel.key),
		mode: modeOf(channel.mode),
		multiKeyMode: multiKeyModeOf(channel.multiKeyMode),
		keys,
		baseUrl: channel.baseUrl,
		other: channel.other,
		organization: channel.openaiOrganization,
		models: splitList(channel.models),
		groups: splitList(channel.group),
		priority: channel.priority,
		weight: channel.weight,
		modelMapping: textMap(channel.modelMapping),
		statusCodeMapping: textMap(channel.statusCodeMapping),
		autoBan: channel.autoBan === 1,
		setting: readChannelSetting(parseJsonObject(channel.setting)),
		maxInputTokens: channel.maxInputTokens > 0 ? channel.maxInputTokens : 0,
		testModel: channel.testModel,
		cost: readChannelCost(channel.costRatio, channel.modelCost),
	}
	return { ...routable, settingsFingerprint: settingsFingerprint(routable) }
}

/** Each row as `read` makes it, leaving out (and reporting) a row whose key cannot be decrypted. */
export function readableChannels<Channel>(records: readonly ChannelRecord[], read: (channel: ChannelRecord) => Channel, onUnreadableKey?: (channelId: number) => void): Channel[] {
	const readable: Channel[] = []
	for (const channel of records) {
		try {
			readable.push(read(channel))
		} catch {
			onUnreadableKey?.(channel.id)
		}
	}
	return readable
}

/**
 * Every enabled channel with its keys decrypted and its fields parsed, in two queries (the
 * channels, then the enabled keys of the enabled multi-key ones). A channel whose key cannot be
 * decrypted (written under another CRYPTO_SECRET) is left out and reported to `onUnreadableKey`;
 * a multi-key channel without an enabled key is left out like a disabled channel.
 */
export async function loadRoutableChannels(store: Store, secrets: SecretBox, onUnreadableKey?: (channelId: number) => void): Promise<RoutableChannel[]> {
	const { channels, channelKeys } = store.tables
	const enabled = await store.db.select().from(channels).where(eq(channels.status, CHANNEL_STATUS.enabled)).orderBy(channels.id)
	const keysByChannel = new Map<number, SealedKey[]>()
	if (enabled.some(isMultiKey)) {
		const usable = await store.db.select({ channelId: channelKeys.channelId, index: channelKeys.position, key: channelKeys.key })
			.from(channelKeys)
			.innerJoin(channels, eq(channels.id, channelKeys.channelId))
			.where(and(eq(channels.status, CHANNEL_STATUS.enabled), eq(channels.mode, CHANNEL_MODE.multiKey), eq(channelKeys.status, CHANNEL_STATUS.enabled)))
			.orderBy(asc(channelKeys.channelId), asc(channelKeys.position))
		for (const { channelId, index, key } of usable) {
			const list = keysByChannel.get(channelId)
			if (list) list.push({ index, key })
			else keysByChannel.set(channelId, [{ index, key }])
		}
	}
	const routable = enabled.filter((channel) => !isMultiKey(channel) || keysByChannel.has(channel.id))
	return readableChannels(routable, (channel) => toRoutableChannel(secrets, channel, keysByChannel.get(channel.id)), onUnreadableKey)
}

/** The groups and models one channel lists, whatever its status. */
export interface ChannelListing {
	groups: string[]
	models: string[]
}

/**
 * What every channel lists, enabled or not (two narrow columns): the routing table tells a model no
 * channel of a group lists (it does not exist for the caller) from one whose channels cannot take a
 * call now (disabled, without a usable key).
 */
export async function loadChannelListings(store: Store): Promise<ChannelListing[]> {
	const { channels } = store.tables
	const listed = await store.db.select({ group: channels.group, models: channels.models }).from(channels)
	return listed.map((channel) => ({ groups: splitList(channel.group), models: splitList(channel.models) }))
}

/**
 * Unit of work: an enabled channel to auto-disabled (status 3) with the reason and time in
 * `other_info`, its abilities disabled. Answers false when the channel was not enabled.
 */
export function* autoDisableChannel(tx: Database, tables: Tables, channelId: number, reason: StatusReason, now: number) {
	const { channels } = tables
	const isEnabled = and(eq(channels.id, channelId), eq(channels.status, CHANNEL_STATUS.enabled))
	const [channel] = yield* rows(tx.select({ otherInfo: channels.otherInfo }).from(channels).where(isEnabled))
	if (!channel) return false
	const otherInfo = withStatusInfo(channel.otherInfo, CHANNEL_STATUS.autoDisabled, reason, now)
	const [updated] = yield* rows(tx.update(channels).set({ status: CHANNEL_STATUS.autoDisabled, otherInfo }).where(isEnabled).returning({ id: channels.id }))
	if (!updated) return false
	yield* rebuildAbilities(tx, tables, [channelId])
	return true
}

/** Unit of work: an auto-disabled channel (status 3) enabled, its reason cleared; false when it was not auto-disabled. */
export function* enableAutoDisabledChannelWork(tx: Database, tables: Tables, channelId: number) {
	const { channels } = tables
	const isAutoDisabled = and(eq(channels.id, channelId), eq(channels.status, CHANNEL_STATUS.autoDisabled))
	const [channel] = yield* rows(tx.select({ otherInfo: channels.otherInfo }).from(channels).where(isAutoDisabled))
	if (!channel) return false
	const otherInfo = withStatusInfo(channel.otherInfo, CHANNEL_STATUS.enabled, undefined, 0)
	const [updated] = yield* rows(tx.update(channels).set({ status: CHANNEL_STATUS.enabled, otherInfo }).where(isAutoDisabled).returning({ id: channels.id }))
	if (!updated) return false
	yield* rebuildAbilities(tx, tables, [channelId])
	return true
}

/**
 * Sets an enabled channel to auto-disabled (status 3) with the reason and time in `other_info`,
 * and disables its abilities, in one transaction; then tells the routing table. Checking
 * `auto_ban` and the auto-disable option is the caller's business. Answers false when the channel
 * was not enabled (already disabled, or gone), in which case nothing changes.
 */
export async function markChannelAutoDisabled(store: Store, channelId: number, reason: StatusReason, changes: ChangeFeed): Promise<boolean> {
	const now = nowSeconds()
	const disabled = await store.transaction((tx, tables) => autoDisableChannel(tx, tables, channelId, reason, now))
	if (disabled) changes.notify('channels')
	return disabled
}

/** Auto-disabled (status 3) → enabled, clearing the reason; then tells the routing table. Answers false when it was not auto-disabled. */
export async function enableAutoDisabledChannel(store: Store, channelId: number, changes: ChangeFeed): Promise<boolean> {
	const enabled = await store.transaction((tx, tables) => enableAutoDisabledChannelWork(tx, tables, channelId))
	if (enabled) changes.notify('channels')
	return enabled
}
