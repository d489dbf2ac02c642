/** Unix time in whole seconds, the unit of every stored timestamp. */
export function nowSeconds(): number {
	return Math.floor(Date.now() / 1000)
}
