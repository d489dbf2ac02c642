/** Number, quota and time display shared by every page (docs/specification/README.md#conventions-every-area-shares). */
import type { Status } from '@ui/lib/status'

export { abbreviateNumber, renderQuota } from '@shared/quota-display'

/** Quota units as a quota field shows them: dollars when the server shows currency, else units. */
export function quotaToDisplay(quota: number, status: Pick<Status, 'display_in_currency' | 'quota_per_unit'>): string {
	return status.display_in_currency ? String(quota / status.quota_per_unit) : String(quota)
}

/** Quota units for a typed amount in the display unit (dollars or units). */
export function quotaFromDisplay(amount: number, status: Pick<Status, 'display_in_currency' | 'quota_per_unit'>): number {
	return status.display_in_currency ? Math.round(amount * status.quota_per_unit) : Math.round(amount)
}

/** Milliseconds as seconds with `digits` decimals, e.g. `1.25` (the text around it is the caller's). */
export function millisecondsAsSeconds(milliseconds: number, digits: number): string {
	return (milliseconds / 1000).toFixed(digits)
}

const formatters = new Map<string, Intl.DateTimeFormat>()

/** Unix seconds as `yyyy-MM-dd HH:mm:ss` in `timeZone` (see useFormatTime, which picks the viewer's). */
export function formatTimestamp(seconds: number, timeZone?: string): string {
	if (!seconds || seconds <= 0) return '-'
	const key = timeZone ?? ''
	let formatter = formatters.get(key)
	if (!formatter) {
		try {
			formatter = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
		} catch {
			formatter = new Intl.DateTimeFormat('sv-SE', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
		}
		formatters.set(key, formatter)
	}
	return formatter.format(new Date(seconds * 1000))
}

/** Parses `yyyy-MM-dd HH:mm:ss` (or anything Date understands) into unix seconds; NaN when it cannot. */
export function parseDateTime(text: string): number {
	const normalised = text.trim().replace(' ', 'T')
	const time = new Date(normalised).getTime()
	return Number.isNaN(time) ? Number.NaN : Math.floor(time / 1000)
}
