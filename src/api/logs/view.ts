import type { AdminLogEntry, LogEntry } from '@shared/log'
import type { Language } from '@shared/messages'
import type { Tables } from '@/db'
import { wordedContent } from './wording'

type LogRecord = Tables['logs']['$inferSelect']

/** Admins also see the channel and `other.admin_info`; ordinary users never do. The content reads in `language`. */
export function toLogEntry(log: LogRecord, admin: boolean, language: Language): LogEntry | AdminLogEntry {
	const other = readOther(log.other, admin)
	const entry: LogEntry = {
		id: log.id,
		created_at: log.createdAt,
		type: log.type,
		content: wordedContent(language, log.content, other),
		username: log.username,
		token_name: log.tokenName,
		model_name: log.modelName,
		quota: log.quota,
		prompt_tokens: log.promptTokens,
		completion_tokens: log.completionTokens,
		use_time: log.useTime,
		is_stream: log.isStream,
		user_id: log.userId,
		group: log.group,
		request_id: log.requestId,
		subscription_id: log.subscriptionId,
		other,
	}
	return admin ? { ...entry, channel: log.channelId, channel_name: log.channelName, cost: log.cost } : entry
}

function readOther(text: string, admin: boolean): Record<string, unknown> {
	let value: unknown
	try {
		value = JSON.parse(text)
	} catch {
		return {}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
	if (admin) return value as Record<string, unknown>
	const { admin_info: _adminOnly, ...visible } = value as Record<string, unknown>
	return visible
}
