/** How quota is shown to people (seed 000 §9, seed 002 §9); used by the console and by server-made names. */

/** The two status fields that decide it. */
export type QuotaDisplay = { display_in_currency: boolean; quota_per_unit: number }

/** 10k and above as k, a million as M, a billion as B (seed 000 §9). */
export function abbreviateNumber(value: number): string {
	const sign = value < 0 ? '-' : ''
	const magnitude = Math.abs(value)
	const trim = (number: number) => String(Number(number.toFixed(1)))
	if (magnitude >= 1e9) return `${sign}${trim(magnitude / 1e9)}B`
	if (magnitude >= 1e6) return `${sign}${trim(magnitude / 1e6)}M`
	if (magnitude >= 1e4) return `${sign}${trim(magnitude / 1e3)}k`
	return String(value)
}

/** Quota as the server asks it to be shown: dollars (`$1.23`) when display_in_currency is on, else units. */
export function renderQuota(quota: number, status: QuotaDisplay, digits = 2): string {
	if (!status.display_in_currency) return abbreviateNumber(quota)
	const perUnit = status.quota_per_unit > 0 ? status.quota_per_unit : 500_000
	const amount = quota / perUnit
	const fixed = amount.toFixed(digits)
	// A tiny non-zero amount is shown as the smallest visible one rather than as zero.
	if (quota > 0 && Number(fixed) === 0) return `$${(1 / 10 ** digits).toFixed(digits)}`
	return `$${fixed}`
}
