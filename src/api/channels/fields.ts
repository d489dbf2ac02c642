/** From validated input to column values: defaults, list normal form, `other_info` upkeep. */
import type { z } from 'zod'
import { CHANNEL_MESSAGES, DEFAULT_CHANNEL_GROUP, type createChannelSchema, type updateChannelSchema } from '@shared/channel'
import { CHANNEL_STATUS, DEFAULT_CHANNEL_OTHER, type ChannelType } from '@shared/channel-type'
import type { Tables } from '@/db'
import { withStatusInfo, type ChannelRecord } from '@/db/stores/channels'
import { statusReason } from '@shared/messages/channel-status'

/** The stored reason of a channel disabled by hand, worded in the reader's language on read. */
export const DISABLED_BY_ADMINISTRATOR = statusReason('admin.disabled')

type CreateInput = z.infer<typeof createChannelSchema>
type UpdateInput = z.infer<typeof updateChannelSchema>
export type ChannelColumns = Omit<Tables['channels']['$inferInsert'], 'id'>

/** Input fields stored as they are, by column. */
const PLAIN_FIELDS = {
	type: 'type',
	name: 'name',
	base_url: 'baseUrl',
	other: 'other',
	model_mapping: 'modelMapping',
	status_code_mapping: 'statusCodeMapping',
	setting: 'setting',
	tag: 'tag',
	priority: 'priority',
	weight: 'weight',
	openai_organization: 'openaiOrganization',
	max_input_tokens: 'maxInputTokens',
	test_model: 'testModel',
	auto_ban: 'autoBan',
	scheduled_test_enabled: 'scheduledTestEnabled',
	multi_key_mode: 'multiKeyMode',
	model_cost: 'modelCost',
} as const satisfies Record<string, keyof ChannelColumns>

export const joinGroups = (groups: readonly string[]) => groups.length ? groups.join(',') : DEFAULT_CHANNEL_GROUP

function otherOrDefault(type: number, other: string): string {
	return other || (DEFAULT_CHANNEL_OTHER[type as ChannelType] ?? '')
}

function plainColumns(input: Partial<Record<keyof typeof PLAIN_FIELDS | 'cost_ratio', unknown>>): Partial<ChannelColumns> {
	const columns: Record<string, unknown> = {}
	for (const [field, column] of Object.entries(PLAIN_FIELDS)) {
		const value = input[field as keyof typeof PLAIN_FIELDS]
		if (value !== undefined && value !== null) columns[column] = value
	}
	// An empty cost ratio makes the cost unknown again.
	if (input.cost_ratio !== undefined && input.cost_ratio !== null) columns.costRatio = input.cost_ratio === '' ? null : input.cost_ratio
	return columns as Partial<ChannelColumns>
}

/** Columns of a new channel except `name` and `key`, which differ per channel in batch mode (`mode` is the caller's too). */
export function newChannelColumns(input: CreateInput, now: number): Omit<ChannelColumns, 'name' | 'key'> {
	const status = input.status ?? CHANNEL_STATUS.enabled
	return {
		...plainColumns(input),
		other: otherOrDefault(input.type, input.other ?? ''),
		models: input.models.join(','),
		group: joinGroups(input.group ?? []),
		autoBan: input.auto_ban ?? 1,
		status,
		otherInfo: withStatusInfo('', status, DISABLED_BY_ADMINISTRATOR, now),
	}
}

/** The column changes an update asks for (the key is handled by the caller, it needs encrypting). */
export function changedColumns(current: ChannelRecord, input: UpdateInput, now: number): Partial<ChannelColumns> {
	const columns = plainColumns(input)
	if (input.models) columns.models = input.models.join(',')
	if (input.group) columns.group = joinGroups(input.group)
	const type = columns.type ?? current.type
	const other = otherOrDefault(type, columns.other ?? current.other)
	if (other === current.other) delete columns.other
	else columns.other = other
	if (input.status && input.status !== current.status) {
		columns.status = input.status
		columns.otherInfo = withStatusInfo(current.otherInfo, input.status, DISABLED_BY_ADMINISTRATOR, now)
	}
	return columns
}

/** Batch mode: one key per non-empty line, each once. */
export function batchKeys(key: string): string[] {
	return [...new Set(key.split('\n').map((line) => line.trim()).filter(Boolean))]
}

export function batchName(name: string, index: number): string {
	return index === 0 ? name : `${name}-${index + 1}`
}
