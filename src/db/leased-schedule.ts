/**
 * A background job that runs every so often on one node only (design §9). A timer ticks every
 * `tickMs`; on each tick that finds a run due (by the time elapsed since this node's last run),
 * this node takes the job's lease and runs it. The holder renews the lease with every run, for two
 * intervals, so another node takes over only after the holder stopped.
 *
 * A busy main thread never drifts the schedule. The timer is on the main thread, which owns the
 * database: a tick that falls while the thread is busy comes when it is free, which is also when a
 * clock worker's message would have been handled (these jobs used to have one; measured with the
 * thread busy in 200 ms stretches for 6 s: the longest wait between ticks was 206 ms either way, and
 * the last tick came at 5 947 ms against 5 951). Bun's intervals keep their schedule (ticks missed
 * while busy are skipped, not shifted), and a run is due by elapsed time, so a busy stretch delays
 * one run by at most its own length and the next runs are not moved. A worker cost a thread and a
 * JavaScript VM, about 3 MB of idle memory.
 */
import type { Logger } from '@/lib/logger'
import type { Store } from './index'
import { releaseLease, takeLease } from './lease'

const MILLISECONDS_PER_SECOND = 1000
const LEASE_INTERVALS = 2

interface LeasedScheduleInput {
	/** The lease row's name. */
	lease: string
	/** This process (`<node>/<boot id>`), the lease holder. */
	holder: string
	/** Milliseconds between runs, read on every tick; 0 or less turns the job off. */
	intervalMs: () => number
	tickMs: number
	/** Whether the first run is due at the first tick (a restarted node catches up) or after one interval. */
	runAtStart: boolean
	run: () => Promise<void>
	/** Names the job in the error log. */
	description: string
}

/** What a caller gives to start one of the scheduled jobs (health check, dashboard export). */
export interface ScheduledJobInput<Summary> {
	/** This process (`<node>/<boot id>`), the lease holder. */
	holder: string
	/** Tests: a run every this many milliseconds instead of the option's minutes. */
	intervalMs?: number
	tickMs?: number
	/** Tests: told after every run this node made. */
	onRun?: (summary: Summary) => void
}

export interface LeasedSchedule {
	stop(): Promise<void>
}

export function startLeasedSchedule(store: Store, logger: Logger, input: LeasedScheduleInput): LeasedSchedule {
	let lastRun = input.runAtStart ? Number.NEGATIVE_INFINITY : performance.now()
	let running: Promise<void> | undefined
	let stopped = false

	async function maybeRun() {
		const interval = input.intervalMs()
		if (interval <= 0 || performance.now() - lastRun < interval) return
		const leaseSeconds = Math.ceil((interval * LEASE_INTERVALS) / MILLISECONDS_PER_SECOND)
		if (!await takeLease(store, input.lease, input.holder, leaseSeconds)) return
		lastRun = performance.now()
		await input.run()
	}

	const timer = setInterval(() => {
		if (running || stopped) return
		running = maybeRun()
			.catch((error) => logger.error(`the ${input.description} failed`, { error: String(error) }))
			.finally(() => {
				running = undefined
			})
	}, input.tickMs)
	// The clock alone keeps no process alive.
	timer.unref()

	return {
		async stop() {
			stopped = true
			clearInterval(timer)
			await running
			await releaseLease(store, input.lease, input.holder).catch(() => {})
		},
	}
}
