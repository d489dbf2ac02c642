/**
 * How long background work (a worker's first tick, a Postgres round trip, a message through Redis)
 * gets by default: far beyond its pace on an idle machine, so only work that never happens fails.
 */
const EVENTUALLY_TIMEOUT_MS = 20_000

/** Polls `check` until it answers something truthy (background work), or fails after `timeoutMs`. */
export async function eventually<Value>(check: () => Promise<Value | undefined | false>, timeoutMs = EVENTUALLY_TIMEOUT_MS, intervalMs = 20): Promise<Value> {
	const deadline = performance.now() + timeoutMs
	while (performance.now() < deadline) {
		const value = await check()
		if (value) return value
		await Bun.sleep(intervalMs)
	}
	throw new Error(`the condition did not come true within ${timeoutMs} ms`)
}
