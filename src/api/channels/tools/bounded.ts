/** Runs `work` over `items`, at most `limit` at a time, in order of the items. */
export async function eachBounded<Item>(items: readonly Item[], limit: number, work: (item: Item) => Promise<void>): Promise<void> {
	let next = 0
	const lane = async () => {
		while (next < items.length) await work(items[next++]!)
	}
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
