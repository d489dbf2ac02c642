/** How quota is shown to people (docs/specification/README.md#conventions-every-area-shares); used by the console and by server-made names. */

/** The two status fields that decide it. */
export type QuotaDisplay = { display_in_currency: boolean; quota_per_unit: number }

/** 10k and above as k, a million as M, a billion as B (docs/specification/README.md#conventions-every-area-shares). */
export function abbreviateNumber(value: number): string {
	const sign = value < 0 ? '-' : ''
	const magnitude = Math.abs(value)
	const trim = (number: number) => String(Number(number.toFixed(1)))
	if (magnitude >= 1e9) return `${sign}${trim(magnitude / 1e9)}B`
	if (magnitude >= 1e6) return `${sign}${trim(magnitude / 1e6)}M`
	if (magnitude >= 1e4) return `${sign}${trim(magnitude / 1e3)}k`
	return String(value)
}

/** Significant digits shown for an amount too small for the fixed decimals (`$0.000016`, not `$0.00`). */
const SMALL_AMOUNT_SIGNIFICANT_DIGITS = 2

/** Dollars with `digits` decimals, or, below the smallest amount they can show, with two significant digits. */
export function formatDollars(amount: number, digits = 2): string {
	const sign = amount < 0 ? '-' : ''
	const magnitude = Math.abs(amount)
	if (magnitude === 0 || magnitude >= 10 ** -digits) return `${sign}$${magnitude.toFixed(digits)}`
	// toFixed never switches to exponent notation below 1e21, unlike String(number) below 1e-6.
	const decimals = Math.min(20, SMALL_AMOUNT_SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(magnitude)))
	return `${sign}$${magnitude.toFixed(decimals).replace(/0+$/, '')}`
}

/** Quota as the server asks it to be shown: dollars (`$1.23`) when display_in_currency is on, else units. */
export function renderQuota(quota: number, status: QuotaDisplay, digits = 2): string {
	if (!status.display_in_currency) return abbreviateNumber(quota)
	const perUnit = status.quota_per_unit > 0 ? status.quota_per_unit : 500_000
	return formatDollars(quota / perUnit, digits)
}
