/**
 * A Bun worker that plays "another client": it calls `GET /api/status` on its own thread, so that a
 * stalled main thread (where the Ferry under test runs) shows as slow answers instead of also
 * stalling the clock that measures them. Used through `probeWhile` in ./stall-probe.ts.
 *
 * Message in: `{ url, headStartMs, probes, spacingMs, timeoutMs }`; or `{ url, spacingMs, timeoutMs,
 * continuous: true }` to probe every `spacingMs` until a later `'stop'` message. Message out: the
 * latency of each probe in milliseconds (`timeoutMs` for one that got no answer in time).
 */
export type ProbeRequest = { url: string; headStartMs: number; probes: number; spacingMs: number; timeoutMs: number }
export type ContinuousProbeRequest = { url: string; spacingMs: number; timeoutMs: number; continuous: true }

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

async function probe(url: string, timeoutMs: number): Promise<number> {
	const started = performance.now()
	try {
		const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
		await response.arrayBuffer()
		return response.ok ? performance.now() - started : timeoutMs
	} catch {
		return timeoutMs
	}
}

let stopped: (() => void) | undefined

/** Probes every `spacingMs`, each on its own, until told to stop; then waits for the ones under way. */
async function probeUntilStopped({ url, spacingMs, timeoutMs }: ContinuousProbeRequest) {
	const stop = new Promise<void>((resolve) => {
		stopped = resolve
	})
	let running = true
	void stop.then(() => {
		running = false
	})
	const latencies: Promise<number>[] = []
	while (running) {
		latencies.push(probe(url, timeoutMs))
		await Promise.race([Bun.sleep(spacingMs), stop])
	}
	scope.postMessage(await Promise.all(latencies))
}

scope.onmessage = async (event: MessageEvent<ProbeRequest | ContinuousProbeRequest | 'stop'>) => {
	if (event.data === 'stop') return stopped?.()
	if ('continuous' in event.data) return probeUntilStopped(event.data)
	const { url, headStartMs, probes, spacingMs, timeoutMs } = event.data
	await Bun.sleep(headStartMs)
	// Spaced but not waiting for one another: each probe sent during a stall waits for its end.
	const latencies = await Promise.all(Array.from({ length: probes }, async (_, index) => {
		await Bun.sleep(index * spacingMs)
		return probe(url, timeoutMs)
	}))
	scope.postMessage(latencies)
}
