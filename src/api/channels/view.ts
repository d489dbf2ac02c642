import { asc, count, eq, getTableColumns, inArray } from 'drizzle-orm'
import { CHANNEL_MODE, KEY_LAST_ERROR_MAX_LENGTH, MULTI_KEY_MODE, type ChannelKeyCounts, type ChannelKeyView, type ChannelView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { inEnglish, type Language, renderMessage } from '@shared/messages'
import { statusReason, statusReasonMessage, storedStatusReason } from '@shared/messages/channel-status'
import type { Store, Tables } from '@/db'
import type { ChannelKeyRecord } from '@/db/stores/channel-keys'
import { isMultiKey, parseJsonObject, type ChannelRecord } from '@/db/stores/channels'
import { storedLastError } from '@/db/stores/key-outcomes'

export type ChannelWithoutKey = Omit<ChannelRecord, 'key'>

/** Every column but the key: reads that answer the API never load the ciphertext at all. */
export function columnsWithoutKey({ channels }: Tables) {
	const { key: _key, ...columns } = getTableColumns(channels)
	return columns
}

/** How channels disabled by hand before the codes were stored: worded again too. */
const OLD_ADMINISTRATOR_REASON = inEnglish(statusReasonMessage(statusReason('admin.disabled')))

/**
 * `other_info` with Ferry's own status reason worded in the reader's language (issue 16). A
 * reason without its code (stored before the codes, or by another writer) is shown as stored.
 */
function wordedOtherInfo(otherInfo: string, language: Language): string {
	if (!otherInfo.includes('status_reason')) return otherInfo
	const info = parseJsonObject(otherInfo)
	const reason = storedStatusReason(info.status_reason_line)
		?? (info.status_reason === OLD_ADMINISTRATOR_REASON ? statusReason('admin.disabled') : undefined)
	return reason ? JSON.stringify({ ...info, status_reason: renderMessage(language, statusReasonMessage(reason)) }) : otherInfo
}

/** A key's stored `status_reason` (a channel's `other_info` reason shape) worded in `language`. */
function wordedKeyReason(stored: string, language: Language): string {
	if (!stored) return ''
	const info = parseJsonObject(stored)
	const reason = storedStatusReason(info.status_reason_line)
	if (reason) return renderMessage(language, statusReasonMessage(reason))
	return typeof info.status_reason === 'string' ? info.status_reason : ''
}

export type KeyWithoutSecret = Omit<ChannelKeyRecord, 'key' | 'digest'>

/** Every column of a key but the sealed key and its digest. */
export function keyColumnsWithoutSecret({ channelKeys }: Tables) {
	const { key: _key, digest: _digest, ...columns } = getTableColumns(channelKeys)
	return columns
}

export function toKeyView(key: KeyWithoutSecret, language: Language): ChannelKeyView {
	const lastError = storedLastError(key.lastError)
	return {
		index: key.position,
		hint: key.hint,
		status: key.status,
		status_reason: key.status === CHANNEL_STATUS.enabled ? '' : wordedKeyReason(key.statusReason, language),
		status_time: key.statusTime,
		last_error: (typeof lastError === 'string' ? lastError : renderMessage(language, lastError)).slice(0, KEY_LAST_ERROR_MAX_LENGTH),
		response_time: key.responseTime,
		test_time: key.testTime,
	}
}

/** The keys of one channel as the API shows them, in index order. */
export async function channelKeyViews(store: Store, channelId: number, language: Language): Promise<ChannelKeyView[]> {
	const { channelKeys } = store.tables
	const found = await store.db.select(keyColumnsWithoutSecret(store.tables)).from(channelKeys)
		.where(eq(channelKeys.channelId, channelId)).orderBy(asc(channelKeys.position))
	return found.map((key) => toKeyView(key, language))
}

const ID_CHUNK = 500

/** Key counts by status of the multi-key channels among `channels`, in one query (per 500 of them). */
export async function keyCountsOf(store: Store, channels: readonly Pick<ChannelWithoutKey, 'id' | 'mode'>[]): Promise<Map<number, ChannelKeyCounts>> {
	const ids = channels.filter(isMultiKey).map((channel) => channel.id)
	const counts = new Map<number, ChannelKeyCounts>(ids.map((id) => [id, { total: 0, enabled: 0, manually_disabled: 0, auto_disabled: 0 }]))
	if (ids.length === 0) return counts
	const { channelKeys } = store.tables
	const found = []
	for (let start = 0; start < ids.length; start += ID_CHUNK) {
		found.push(...await store.db.select({ channelId: channelKeys.channelId, status: channelKeys.status, value: count() })
			.from(channelKeys).where(inArray(channelKeys.channelId, ids.slice(start, start + ID_CHUNK))).groupBy(channelKeys.channelId, channelKeys.status))
	}
	for (const { channelId, status, value } of found) {
		const tally = counts.get(channelId)!
		const number = Number(value)
		tally.total += number
		if (status === CHANNEL_STATUS.enabled) tally.enabled += number
		else if (status === CHANNEL_STATUS.manuallyDisabled) tally.manually_disabled += number
		else if (status === CHANNEL_STATUS.autoDisabled) tally.auto_disabled += number
	}
	return counts
}

/**
 * The channel as the API answers it, its status reason worded in `language`; `keyCounts` for a
 * multi-key channel (from `keyCountsOf`).
 */
export function toChannelView(channel: ChannelWithoutKey, language: Language, keyCounts?: ChannelKeyCounts): ChannelView {
	return {
		id: channel.id,
		type: channel.type,
		name: channel.name,
		key: '',
		base_url: channel.baseUrl,
		other: channel.other,
		models: channel.models,
		group: channel.group,
		model_mapping: channel.modelMapping,
		status_code_mapping: channel.statusCodeMapping,
		tag: channel.tag,
		priority: channel.priority,
		weight: channel.weight,
		setting: channel.setting,
		openai_organization: channel.openaiOrganization,
		max_input_tokens: channel.maxInputTokens,
		test_model: channel.testModel,
		auto_ban: channel.autoBan,
		scheduled_test_enabled: Boolean(channel.scheduledTestEnabled),
		health_failures: channel.healthFailures,
		status: channel.status,
		response_time: channel.responseTime,
		used_quota: channel.usedQuota,
		balance: channel.balance,
		balance_updated_time: channel.balanceUpdatedTime,
		test_time: channel.testTime,
		expired_time: channel.expiredTime,
		created_time: channel.createdTime,
		other_info: wordedOtherInfo(channel.otherInfo, language),
		cost_ratio: channel.costRatio,
		model_cost: channel.modelCost,
		mode: isMultiKey(channel) ? CHANNEL_MODE.multiKey : CHANNEL_MODE.single,
		multi_key_mode: channel.multiKeyMode === MULTI_KEY_MODE.polling ? MULTI_KEY_MODE.polling : MULTI_KEY_MODE.random,
		key_counts: isMultiKey(channel) ? keyCounts ?? { total: 0, enabled: 0, manually_disabled: 0, auto_disabled: 0 } : null,
	}
}

/** The channels as the API answers them, with the key counts of the multi-key ones (one query for all). */
export async function toChannelViews(store: Store, channels: readonly ChannelWithoutKey[], language: Language): Promise<ChannelView[]> {
	const counts = await keyCountsOf(store, channels)
	return channels.map((channel) => toChannelView(channel, language, counts.get(channel.id)))
}
