/**
 * Why a channel was disabled (issue 16), in the reader's language. A reason is stored in the
 * channel's `other_info` twice: `status_reason`, its English wording (for readers that do not know
 * the codes, and what channels disabled before the codes hold alone), and `status_reason_line`,
 * `{ code, values }` to word it again. The channel views word a coded reason in the reader's
 * language; an upstream's own message inside a reason stays as the upstream sent it.
 */
import { plural } from '../plural'
import type { LocalizedMessage, MessageValue } from './define'

export const CHANNEL_STATUS_REASON_ENTRIES = {
	'admin.disabled': ['被管理员禁用', 'disabled by an administrator'],
	'upstream.unauthorized': ['上游返回 401：{message}', 'upstream answered 401: {message}'],
	'upstream.forbidden': ['上游返回 403：{message}', 'upstream answered 403: {message}'],
	'upstream.keyword': ['上游错误包含“{keyword}”：{message}', 'upstream error matched "{keyword}": {message}'],
	/** `reason` is the test's own outcome, a catalogue message. */
	'test.failed': ['渠道测试失败：{reason}', 'channel test failed: {reason}'],
	/** A multi-key channel whose last enabled key was auto-disabled; `reason` is that key's, a nested reason. */
	'keys.all_disabled': ['所有密钥均已自动禁用（最后一个是 #{index}：{reason}）', 'all keys are auto-disabled (the last, #{index}: {reason})'],
	'test.slow': ['渠道测试用时 {seconds} 秒，超过 {threshold} 秒的阈值', 'channel test took {seconds} s, more than the {threshold} s threshold'],
	/** `ChannelTestFailuresToDisable` above 1: `count` checks in a row failed; `reason` is the last one's (`test.failed` or `test.slow`), a nested reason. */
	'test.failed_repeatedly': ['连续 {count} 次健康检查未通过，最后一次：{reason}', plural('count', { one: '{count} health check did not pass: {reason}', other: '{count} health checks in a row did not pass, the last: {reason}' })],
} as const

export type StatusReasonCode = keyof typeof CHANNEL_STATUS_REASON_ENTRIES
/** What `other_info.status_reason_line` holds; a value may be a catalogue message (JSON as it is). */
export type StatusReason = { readonly code: StatusReasonCode; readonly values: Readonly<Record<string, MessageValue>> }

export const isStatusReasonCode = (code: unknown): code is StatusReasonCode =>
	typeof code === 'string' && Object.hasOwn(CHANNEL_STATUS_REASON_ENTRIES, code)

export const statusReason = (code: StatusReasonCode, values: StatusReason['values'] = {}): StatusReason => ({ code, values })

/** The reason as a catalogue message (the catalogue words it and its nested values). */
export const statusReasonMessage = (reason: StatusReason): LocalizedMessage => ({ text: CHANNEL_STATUS_REASON_ENTRIES[reason.code][0], values: reason.values })

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A stored value the catalogue can word: text, a number, a `{zh, en}` pair or a nested message. */
function isStoredValue(value: unknown): value is MessageValue {
	if (typeof value === 'string' || typeof value === 'number') return true
	if (isObject(value) && typeof value.zh === 'string' && typeof value.en === 'string') return true
	return isObject(value) && typeof value.text === 'string' && isObject(value.values) && Object.values(value.values).every(isStoredValue)
}

/** The stored `status_reason_line` when it is one (old rows and other writers may hold anything). */
export function storedStatusReason(value: unknown): StatusReason | undefined {
	if (!isObject(value) || !isStatusReasonCode(value.code) || !isObject(value.values)) return undefined
	return Object.values(value.values).every(isStoredValue) ? { code: value.code, values: value.values as StatusReason['values'] } : undefined
}
