/** How a log entry reads: type tags, timing colours and the billing formula (docs/specification/logs-and-dashboard.md#log-lines). */
import { FIRST_TOKEN_TIERS_MS, LOG_TYPE, USE_TIME_TIERS_SECONDS } from '@shared/log-constants'
import type { AdminLogEntry, LogEntry } from '@shared/log'
import type { QuotaDisplay } from '@shared/quota-display'
import type { BadgeVariant } from '@ui/components/ui/badge'
import { renderQuota } from '@ui/lib/format'

/** An entry as either endpoint answers it: the channel fields come only from the admin list. */
export type LogRow = LogEntry & Partial<Pick<AdminLogEntry, 'channel' | 'channel_name' | 'cost'>>

/** The type filter's choices; the empty value lists every type. */
export const logTypeOptions = [
	{ value: '', label: '全部' },
	{ value: String(LOG_TYPE.topUp), label: '充值' },
	{ value: String(LOG_TYPE.consume), label: '消费' },
	{ value: String(LOG_TYPE.manage), label: '管理' },
	{ value: String(LOG_TYPE.system), label: '系统' },
	{ value: String(LOG_TYPE.cacheHit), label: '缓存命中' },
] as const

const typeTags: Record<number, { label: string; variant: BadgeVariant }> = {
	[LOG_TYPE.unknown]: { label: '使用', variant: 'lime' },
	[LOG_TYPE.topUp]: { label: '充值', variant: 'blue' },
	[LOG_TYPE.consume]: { label: '消费', variant: 'green' },
	[LOG_TYPE.manage]: { label: '管理', variant: 'orange' },
	[LOG_TYPE.system]: { label: '系统', variant: 'purple' },
	[LOG_TYPE.cacheHit]: { label: '缓存命中', variant: 'yellow' },
}

export function typeTag(type: number) {
	return typeTags[type] ?? { label: '未知类型', variant: 'grey' as const }
}

/** Entries of a relayed call (consumption, an answer from the response cache, and type 0 shown as usage) carry tokens and timings. */
export const isUsage = (type: number) => type === LOG_TYPE.consume || type === LOG_TYPE.unknown || type === LOG_TYPE.cacheHit

export function variantForUseTime(seconds: number): BadgeVariant {
	if (seconds < USE_TIME_TIERS_SECONDS.fast) return 'green'
	if (seconds < USE_TIME_TIERS_SECONDS.slow) return 'orange'
	return 'red'
}

export function variantForFirstToken(milliseconds: number): BadgeVariant {
	if (milliseconds < FIRST_TOKEN_TIERS_MS.fast) return 'green'
	if (milliseconds < FIRST_TOKEN_TIERS_MS.slow) return 'orange'
	return 'red'
}

/** A number from `other`, or undefined when absent or not a number. */
export function otherNumber(other: Record<string, unknown>, key: string): number | undefined {
	const value = other[key]
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

export function otherText(other: Record<string, unknown>, key: string): string | undefined {
	const value = other[key]
	if (typeof value === 'string' && value) return value
	if (typeof value === 'number' || typeof value === 'boolean') return String(value)
	return undefined
}

/** The channels a call tried (admins only): `other.admin_info.use_channel`. */
export function usedChannels(other: Record<string, unknown>): string[] {
	const info = other.admin_info
	if (typeof info !== 'object' || info === null) return []
	const channels = (info as { use_channel?: unknown }).use_channel
	return Array.isArray(channels) ? channels.map(String) : []
}

/** How a call's session affinity went (`other.affinity`, seen by the entry's owner too); zh words. */
export const AFFINITY_STATE_WORDS: Record<string, string> = { hit: '命中', new: '新会话', moved: '迁移' }
export const AFFINITY_REASON_WORDS: Record<string, string> = { cooling: '原密钥冷却中', unusable: '原密钥不可用', failed: '原密钥调用失败' }
/** Where the session came from: the request's own field names stay as they are, the two of Ferry's own are worded. */
export const AFFINITY_SOURCE_WORDS: Record<string, string> = { header: '请求头', rule: '规则' }

const objectAt = (value: unknown): Record<string, unknown> | undefined =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
const adminInfo = (other: Record<string, unknown>) => objectAt(other.admin_info)

/**
 * `other.affinity`: `{ state, reason?, source }`, as "hit (prompt_cache_key)" or "moved: its key was
 * cooling down (metadata.user_id)"; undefined when absent or not of that shape. Translate each value
 * that is a word of the tables above before the template.
 */
export function affinityOf(other: Record<string, unknown>): { state: string; reason?: string; source: string } | undefined {
	const affinity = objectAt(other.affinity)
	if (!affinity) return undefined
	const { state, reason, source } = affinity
	if (typeof state !== 'string' || !(state in AFFINITY_STATE_WORDS) || typeof source !== 'string' || !source) return undefined
	return {
		state: AFFINITY_STATE_WORDS[state]!,
		...(typeof reason === 'string' && reason in AFFINITY_REASON_WORDS ? { reason: AFFINITY_REASON_WORDS[reason]! } : {}),
		source: AFFINITY_SOURCE_WORDS[source] ?? source,
	}
}

/** An attempt's outcome: the upstream's status code, or what kept it from answering; zh words. */
export const ATTEMPT_OUTCOME_WORDS: Record<string, string> = { ok: '正常', timeout: '超时', connection: '连接失败' }

/** `other.admin_info.attempts` (admins only): each `{ channel, key, outcome }` tried, in order, with the outcome's zh word or status code. */
export function attemptsOf(other: Record<string, unknown>): { channel: number; key: number; outcome: string }[] {
	const attempts = adminInfo(other)?.attempts
	if (!Array.isArray(attempts)) return []
	return attempts.flatMap((attempt) => {
		const { channel, key, outcome } = objectAt(attempt) ?? {}
		if (typeof channel !== 'number' || typeof key !== 'number') return []
		const word = typeof outcome === 'number' ? String(outcome) : typeof outcome === 'string' ? ATTEMPT_OUTCOME_WORDS[outcome] ?? outcome : undefined
		return word === undefined ? [] : [{ channel, key, outcome: word }]
	})
}

/** `other.admin_info.key_index` (admins only): the index of the key of the channel that answered. */
export function keyIndexOf(other: Record<string, unknown>): number | undefined {
	const index = adminInfo(other)?.key_index
	return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : undefined
}

/** A user-specific group ratio replaces the group's own; the peers write -1 for "none". */
export function effectiveGroupRatio(other: Record<string, unknown>): number | undefined {
	const userGroupRatio = otherNumber(other, 'user_group_ratio')
	return userGroupRatio !== undefined && userGroupRatio >= 0 ? userGroupRatio : otherNumber(other, 'group_ratio')
}

/** A call's cost is shown to the millionth of a dollar (and smaller amounts to two significant digits). */
export const CALL_COST_DIGITS = 6

/** The unrounded product, in quota, as the formula shows it. */
const RAW_QUOTA_DIGITS = 4
const rawQuota = (quota: number) => String(Number(quota.toFixed(RAW_QUOTA_DIGITS)))

/** A zh template and its values: `t(template, values)` renders it. */
type Formula = { template: string; values: Record<string, string | number> }

/**
 * The pay-as-you-go formula with this entry's numbers (docs/specification/logs-and-dashboard.md#the-log-page), ending in exactly the charge on
 * the row: a fixed model price wins; otherwise group ratio × model ratio × (prompt + completion ×
 * completion ratio), with cached prompt tokens at the cache ratio when the call reported some, is the
 * quota before rounding; the charge is that rounded half away from zero (at least 1), as billing
 * does, or less when the balance ran out.
 */
export function costFormula(entry: LogRow, status: QuotaDisplay): Formula | undefined {
	const { other } = entry
	const groupRatio = effectiveGroupRatio(other)
	if (groupRatio === undefined) return undefined
	const charge = { quota: entry.quota, cost: renderQuota(entry.quota, { ...status, display_in_currency: true }, CALL_COST_DIGITS) }
	const modelPrice = otherNumber(other, 'model_price')
	if (modelPrice !== undefined) {
		return { template: '模型价格 ${model_price} × 分组倍率 {group_ratio}，计费 {quota} 额度 = {cost}', values: { model_price: modelPrice, group_ratio: groupRatio, ...charge } }
	}
	const modelRatio = otherNumber(other, 'model_ratio')
	if (modelRatio === undefined) return undefined
	const completionRatio = otherNumber(other, 'completion_ratio') ?? 1
	const cached = Math.min(otherNumber(other, 'cache_tokens') ?? 0, entry.prompt_tokens)
	const cacheRatio = otherNumber(other, 'cache_ratio') ?? 1
	const weighted = entry.prompt_tokens - cached + cached * cacheRatio + entry.completion_tokens * completionRatio
	const common = {
		group_ratio: groupRatio, model_ratio: modelRatio, completion: entry.completion_tokens, completion_ratio: completionRatio,
		raw: rawQuota(groupRatio * modelRatio * weighted), ...charge,
	}
	if (cached > 0) {
		return {
			template: '分组倍率 {group_ratio} × 模型倍率 {model_ratio} × (提示 {prompt} + 缓存 {cached} × 缓存倍率 {cache_ratio} + 补全 {completion} × 补全倍率 {completion_ratio}) = {raw}，计费 {quota} 额度 = {cost}',
			values: { ...common, prompt: entry.prompt_tokens - cached, cached, cache_ratio: cacheRatio },
		}
	}
	return {
		template: '分组倍率 {group_ratio} × 模型倍率 {model_ratio} × (提示 {prompt} + 补全 {completion} × 补全倍率 {completion_ratio}) = {raw}，计费 {quota} 额度 = {cost}',
		values: { ...common, prompt: entry.prompt_tokens },
	}
}

/** The short pricing note shown in the details column when an entry has no content of its own. */
export function pricingSummary(entry: LogRow): Formula | undefined {
	const { other } = entry
	const groupRatio = effectiveGroupRatio(other)
	const modelPrice = otherNumber(other, 'model_price')
	if (modelPrice !== undefined) return { template: '模型价格 ${model_price}，分组倍率 {group_ratio}', values: { model_price: modelPrice, group_ratio: groupRatio ?? 1 } }
	const modelRatio = otherNumber(other, 'model_ratio')
	if (modelRatio === undefined) return undefined
	return {
		template: '模型倍率 {model_ratio}，补全倍率 {completion_ratio}，分组倍率 {group_ratio}',
		values: { model_ratio: modelRatio, completion_ratio: otherNumber(other, 'completion_ratio') ?? 1, group_ratio: groupRatio ?? 1 },
	}
}
