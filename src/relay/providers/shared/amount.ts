/**
 * A balance figure as upstreams write it: a number, or a number in text (`"110.00"`). Anything
 * else is NaN, which the balance tool reports as an answer it could not read.
 */
export function amountOf(value: unknown): number {
	if (typeof value === 'number') return value
	if (typeof value === 'string' && value.trim() !== '') return Number(value)
	return Number.NaN
}
