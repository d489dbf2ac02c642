/**
 * The timers of a clock worker (src/db/leased-schedule.ts): one interval per job id, ticking the id
 * back to the main thread. Shared by the clock's own worker (src/workers/schedule-clock.ts) and the
 * WAL checkpointer's (src/workers/wal-checkpoint.ts), which keeps time for the jobs on SQLite.
 */
import type { ClockRequest, ClockTick } from './leased-schedule'

/** Answers a clock request (a job's timer; `tickMs` 0 stops it) by starting or stopping its interval. */
export function clockTimers(post: (tick: ClockTick) => void): (request: ClockRequest) => void {
	const timers = new Map<number, ReturnType<typeof setInterval>>()
	return ({ id, tickMs }) => {
		clearInterval(timers.get(id))
		timers.delete(id)
		if (Number.isFinite(tickMs) && tickMs > 0) timers.set(id, setInterval(() => post(id), tickMs))
	}
}
