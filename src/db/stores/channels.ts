/**
 * Channels as the relay and the management API both need them: the stored record, the routing
 * table's source, auto-disabling, and the `other_info` upkeep of a status change.
 */
import { and, eq } from 'drizzle-orm'
import { splitList } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { inEnglish } from '@shared/messages'
import { statusReasonMessage, type StatusReason } from '@shared/messages/channel-status'
import { rows, type Store, type Tables } from '@/db'
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

export interface RoutableChannel {
	id: number
	type: number
	name: string
	/** Decrypted: keep it in memory only, never in a log line or an answer. */
	key: string
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
	setting: Record<string, unknown>
	testModel: string
}

/** Values as text: status code mappings may hold numbers (`{"429": 503}`). */
function textMap(text: string): Record<string, string> {
	return Object.fromEntries(Object.entries(parseJsonObject(text))
		.filter(([, value]) => typeof value === 'string' || typeof value === 'number')
		.map(([key, value]) => [key, String(value)]))
}

/** The row with its key decrypted and its fields parsed; throws when the key was written under another CRYPTO_SECRET. */
export function toRoutableChannel(secrets: SecretBox, channel: ChannelRecord): RoutableChannel {
	return {
		id: channel.id,
		type: channel.type,
		name: channel.name,
		key: secrets.decrypt(channel.key),
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
		setting: parseJsonObject(channel.setting),
		testModel: channel.testModel,
	}
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
 * Every enabled channel with its key decrypted and its fields parsed. A channel whose key cannot
 * be decrypted (written under another CRYPTO_SECRET) is left out and reported to `onUnreadableKey`.
 */
export async function loadRoutableChannels(store: Store, secrets: SecretBox, onUnreadableKey?: (channelId: number) => void): Promise<RoutableChannel[]> {
	const { channels } = store.tables
	const enabled = await store.db.select().from(channels).where(eq(channels.status, CHANNEL_STATUS.enabled)).orderBy(channels.id)
	return readableChannels(enabled, (channel) => toRoutableChannel(secrets, channel), onUnreadableKey)
}

/**
 * Sets an enabled channel to auto-disabled (status 3) with the reason and time in `other_info`,
 * and disables its abilities, in one transaction; then tells the routing table. Checking
 * `auto_ban` and the auto-disable option is the caller's business. Answers false when the channel
 * was not enabled (already disabled, or gone), in which case nothing changes.
 */
export async function markChannelAutoDisabled(store: Store, channelId: number, reason: StatusReason, changes: ChangeFeed): Promise<boolean> {
	const now = nowSeconds()
	const disabled = await store.transaction(function* (tx, tables) {
		const { channels } = tables
		const [channel] = yield* rows(tx.select({ otherInfo: channels.otherInfo }).from(channels)
			.where(and(eq(channels.id, channelId), eq(channels.status, CHANNEL_STATUS.enabled))))
		if (!channel) return false
		const otherInfo = withStatusInfo(channel.otherInfo, CHANNEL_STATUS.autoDisabled, reason, now)
		const [updated] = yield* rows(tx.update(channels).set({ status: CHANNEL_STATUS.autoDisabled, otherInfo })
			.where(and(eq(channels.id, channelId), eq(channels.status, CHANNEL_STATUS.enabled)))
			.returning({ id: channels.id }))
		if (!updated) return false
		yield* rebuildAbilities(tx, tables, [channelId])
		return true
	})
	if (disabled) changes.notify('channels')
	return disabled
}
