/**
 * The clock of every scheduled job (src/db/leased-schedule.ts: the channel health check, the
 * dashboard export, retention, task polling), on a thread of its own so that a busy main thread
 * never drifts the schedule. The main thread owns the database, so it runs the jobs; this worker
 * only says when to look again. One thread serves all the jobs, each with a timer of its own. On
 * SQLite the WAL checkpointer's worker keeps this time instead (src/workers/wal-checkpoint.ts).
 *
 * Messages in: `{ id, tickMs }` (a job's id; 0 stops its timer). Messages out: the job's id every `tickMs`.
 */
import { clockTimers } from '@/db/clock-timers'
import type { ClockRequest } from '@/db/leased-schedule'

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

const answer = clockTimers((tick) => scope.postMessage(tick))

scope.onmessage = (event: MessageEvent<ClockRequest>) => answer(event.data)
