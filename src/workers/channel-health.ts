/**
 * The clock of the scheduled channel health check (design §9), on a thread of its own so that a
 * busy main thread never drifts the schedule. The main thread owns the database, the routing table
 * and the outbound client, so it runs the tests; this worker only says when to look again.
 *
 * Messages in: `{ tickMs }` (0 stops the clock). Messages out: `'tick'` every `tickMs`.
 */
// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

let timer: ReturnType<typeof setInterval> | undefined

scope.onmessage = (event: MessageEvent<{ tickMs: number }>) => {
	clearInterval(timer)
	timer = undefined
	const { tickMs } = event.data
	if (Number.isFinite(tickMs) && tickMs > 0) timer = setInterval(() => scope.postMessage('tick'), tickMs)
}
