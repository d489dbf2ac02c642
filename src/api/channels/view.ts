import { getTableColumns } from 'drizzle-orm'
import type { ChannelView } from '@shared/channel'
import type { Tables } from '@/db'
import type { ChannelRecord } from '@/db/stores/channels'

export type ChannelWithoutKey = Omit<ChannelRecord, 'key'>

/** Every column but the key: reads that answer the API never load the ciphertext at all. */
export function columnsWithoutKey({ channels }: Tables) {
	const { key: _key, ...columns } = getTableColumns(channels)
	return columns
}

export function toChannelView(channel: ChannelWithoutKey): ChannelView {
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
		other_info: channel.otherInfo,
	}
}
