/** The limit fields of the token and user editors: their checks before saving (the server checks them too). */

/** zh source strings of the limit checks. */
export const limitMessages = {
	concurrencyLimitInvalid: '并发上限须为 0 到 {max} 之间的整数（0 表示不限）',
	rpmLimitInvalid: '每分钟请求数上限须为 0 到 {max} 之间的整数（0 表示不限）',
	tpmLimitInvalid: '每分钟 token 数上限须为 0 到 {max} 之间的整数（0 表示不限）',
	rpdLimitInvalid: '每天请求数上限须为 0 到 {max} 之间的整数（0 表示不限）',
} as const

/** The server's rule for a limit: a whole number from 0 to `max`; empty counts as 0 (no limit). */
export function readLimit(text: string, max: number): number | undefined {
	const trimmed = text.trim()
	if (trimmed === '') return 0
	if (!/^\d+$/.test(trimmed)) return undefined
	const limit = Number(trimmed)
	return limit <= max ? limit : undefined
}
