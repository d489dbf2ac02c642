/** Polls `check` until it answers something truthy (background work), or fails after `timeoutMs`. */
export async function eventually<Value>(check: () => Promise<Value | undefined | false>, timeoutMs = 5_000, intervalMs = 20): Promise<Value> {
	const deadline = performance.now() + timeoutMs
	while (performance.now() < deadline) {
		const value = await check()
		if (value) return value
		await Bun.sleep(intervalMs)
	}
	throw new Error(`the condition did not come true within ${timeoutMs} ms`)
}
