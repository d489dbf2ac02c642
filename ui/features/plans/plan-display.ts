/** How plans and their windows read on the page: lengths in the largest whole unit, and each window's use. */
import type { SubscriptionWindow } from '@shared/plan'

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** A length as the page says it: zh text and its value (`{count} 天`, `{count} 小时`…). */
export function describeLength(seconds: number): { text: string; values: { count: number } } {
	if (seconds % DAY === 0) return { text: '{count} 天', values: { count: seconds / DAY } }
	if (seconds % HOUR === 0) return { text: '{count} 小时', values: { count: seconds / HOUR } }
	if (seconds % MINUTE === 0) return { text: '{count} 分钟', values: { count: seconds / MINUTE } }
	return { text: '{count} 秒', values: { count: seconds } }
}

/** The units the editor offers for a length, largest first. */
export const LENGTH_UNITS = [
	{ seconds: DAY, label: '天' },
	{ seconds: HOUR, label: '小时' },
	{ seconds: MINUTE, label: '分钟' },
] as const

/** The largest unit that divides `seconds`, and the count of it. */
export function splitLength(seconds: number): { amount: string; unit: number } {
	const unit = LENGTH_UNITS.find((candidate) => seconds % candidate.seconds === 0) ?? LENGTH_UNITS[LENGTH_UNITS.length - 1]!
	return { amount: String(seconds / unit.seconds), unit: unit.seconds }
}

/** What share of a window's allowance its current period has used or holds (0 to 100, for the meter). */
export function usedPercent(window: Pick<SubscriptionWindow, 'quota' | 'used' | 'held'>): number {
	if (window.quota <= 0) return 100
	return Math.min(100, Math.round(((window.used + window.held) / window.quota) * 100))
}
