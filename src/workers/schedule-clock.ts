/**
 * The clock of every scheduled job (src/db/leased-schedule.ts: the channel health check, the
 * dashboard export, retention, task polling), on a thread of its own so that a busy main thread
 * never drifts the schedule. The main thread owns the database, so it runs the jobs; this worker
 * only says when to look again. One thread serves all the jobs, each with a timer of its own.
 *
 * Messages in: `{ id, tickMs }` (a job's id; 0 stops its timer). Messages out: the job's id every `tickMs`.
 */
import type { ClockRequest, ClockTick } from '@/db/leased-schedule'

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

const timers = new Map<number, ReturnType<typeof setInterval>>()

scope.onmessage = (event: MessageEvent<ClockRequest>) => {
	const { id, tickMs } = event.data
	clearInterval(timers.get(id))
	timers.delete(id)
	if (Number.isFinite(tickMs) && tickMs > 0) timers.set(id, setInterval(() => scope.postMessage(id satisfies ClockTick), tickMs))
}
