import { getTableColumns } from 'drizzle-orm'
import type { ChannelView } from '@shared/channel'
import { inEnglish, type Language, renderMessage } from '@shared/messages'
import { statusReason, statusReasonMessage, storedStatusReason } from '@shared/messages/channel-status'
import type { Tables } from '@/db'
import { parseJsonObject, type ChannelRecord } from '@/db/stores/channels'

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

/** The channel as the API answers it, its status reason worded in `language`. */
export function toChannelView(channel: ChannelWithoutKey, language: Language): ChannelView {
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
		status: channel.status,
		response_time: channel.responseTime,
		used_quota: channel.usedQuota,
		balance: channel.balance,
		balance_updated_time: channel.balanceUpdatedTime,
		test_time: channel.testTime,
		expired_time: channel.expiredTime,
		created_time: channel.createdTime,
		other_info: wordedOtherInfo(channel.otherInfo, language),
	}
}
