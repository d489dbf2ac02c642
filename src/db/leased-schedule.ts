/**
 * A background job that runs every so often on one node only (docs/operations/several-nodes.md#background-jobs). A Bun worker keeps time
 * (a busy main thread never drifts it) and wakes the main thread, which owns the database; on each
 * tick that finds a run due, this node takes the job's lease and runs it. The holder renews the
 * lease with every run, for two intervals, so another node takes over only after the holder stopped.
 *
 * The jobs share one clock worker (src/workers/schedule-clock.ts), each with a timer of its own in
 * it: a Bun worker is a thread with a JavaScript VM of its own, about 1.5 MB resident even idle, and
 * one thread keeps time for all of them as well as one each would. It starts with the first job of
 * its URL and ends with the last. On SQLite the clock runs in the WAL checkpointer's worker
 * (src/workers/wal-checkpoint.ts answers clock requests too; src/lib/shared-worker.ts shares it).
 */
import type { Logger } from '@/lib/logger'
import { acquireWorker, type WorkerLease } from '@/lib/shared-worker'
import type { Store } from './index'
import { releaseLease, takeLease } from './lease'

const MILLISECONDS_PER_SECOND = 1000
const LEASE_INTERVALS = 2

interface LeasedScheduleInput {
	/** The lease row's name. */
	lease: string
	/** The clock worker (src/workers/schedule-clock.ts, or the WAL checkpointer's), resolved by the caller so the compiled binary finds it. */
	workerUrl: URL
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

/** What a caller gives to start one of the scheduled jobs (`startScheduledJob`). */
export interface ScheduledJobInput<Summary> {
	/** The clock worker (src/workers/schedule-clock.ts, or the WAL checkpointer's), resolved by the caller (main.ts) so the compiled binary finds it. */
	workerUrl: URL
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

/** The clock worker's messages: a job's timer in (`tickMs` 0 stops it), the job's id out on every tick. */
export type ClockRequest = { id: number; tickMs: number }
export type ClockTick = number

type ClockSubscriber = { tick: () => void; fail: (message: string) => void }
type SharedClock = { lease: WorkerLease; subscribers: Map<number, ClockSubscriber> }

/** The running clock of each worker URL. */
const clocks = new Map<string, SharedClock>()
let nextJobId = 1

function startClock(workerUrl: URL): SharedClock {
	const lease = acquireWorker(workerUrl)
	const clock: SharedClock = { lease, subscribers: new Map() }
	// The worker may answer others too (the WAL checkpointer's reports are objects): a tick is a number.
	lease.worker.addEventListener('message', (event: MessageEvent<ClockTick | object>) => {
		if (typeof event.data === 'number') clock.subscribers.get(event.data)?.tick()
	})
	lease.worker.addEventListener('error', (event) => {
		for (const subscriber of clock.subscribers.values()) subscriber.fail(String(event.message))
	})
	// Ended while jobs still count on it (it died): said in the log, as a failure is.
	lease.worker.addEventListener('close', () => {
		for (const subscriber of clock.subscribers.values()) subscriber.fail('the clock worker exited')
	})
	return clock
}

/** Ticks `subscriber` every `tickMs` from the shared clock worker of `workerUrl`; returns the unsubscribe. */
function subscribeClock(workerUrl: URL, tickMs: number, subscriber: ClockSubscriber): () => void {
	let clock = clocks.get(workerUrl.href)
	if (!clock) {
		clock = startClock(workerUrl)
		clocks.set(workerUrl.href, clock)
	}
	const id = nextJobId++
	clock.subscribers.set(id, subscriber)
	clock.lease.worker.postMessage({ id, tickMs } satisfies ClockRequest)
	const subscribed = clock
	return () => {
		if (!subscribed.subscribers.delete(id)) return
		// Stopped in the worker even when it lives on (another user shares it).
		subscribed.lease.worker.postMessage({ id, tickMs: 0 } satisfies ClockRequest)
		if (subscribed.subscribers.size > 0) return
		subscribed.lease.release()
		if (clocks.get(workerUrl.href) === subscribed) clocks.delete(workerUrl.href)
	}
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

	const unsubscribe = subscribeClock(input.workerUrl, input.tickMs, {
		tick() {
			if (running || stopped) return
			running = maybeRun()
				.catch((error) => logger.error(`the ${input.description} failed`, { error: String(error) }))
				.finally(() => {
					running = undefined
				})
		},
		fail: (message) => logger.error(`the ${input.description} worker failed`, { error: message }),
	})

	return {
		async stop() {
			stopped = true
			unsubscribe()
			await running
			await releaseLease(store, input.lease, input.holder).catch(() => {})
		},
	}
}

/**
 * One of Ferry's scheduled jobs (the channel health check, key recovery, the dashboard export,
 * retention, task polling), described once; `startScheduledJob` runs it under its lease.
 */
export interface ScheduledJob<Summary> {
	/** The lease row's name. */
	lease: string
	/** Names the job in the error log. */
	description: string
	/** Milliseconds between runs as the options say, read on every tick; 0 or less turns the job off. */
	intervalMs: () => number
	/** When it answers false the job is off, whatever the interval (a test's shorter one included). */
	enabled?: () => boolean
	/** How often the clock wakes the main thread to see whether a run is due. */
	tickMs: number
	/** Whether the first run is due at the first tick (a restarted node catches up) or after one interval. */
	runAtStart: boolean
	/** One run, which logs what it did; its summary goes to the caller's `onRun`. */
	run: () => Promise<Summary>
}

/** Starts `job` under its lease with the caller's clock, holder and (in tests) interval, tick and `onRun`. */
export function startScheduledJob<Summary>(store: Store, logger: Logger, input: ScheduledJobInput<Summary>, job: ScheduledJob<Summary>): LeasedSchedule {
	return startLeasedSchedule(store, logger, {
		lease: job.lease,
		workerUrl: input.workerUrl,
		holder: input.holder,
		intervalMs: () => (job.enabled?.() === false ? 0 : input.intervalMs ?? job.intervalMs()),
		tickMs: input.tickMs ?? job.tickMs,
		runAtStart: job.runAtStart,
		description: job.description,
		async run() {
			// Run first, then tell: `onRun?.(await job.run())` would skip the run itself when no one listens
			// (an optional call leaves its arguments unevaluated), as main.ts starts every job.
			const summary = await job.run()
			input.onRun?.(summary)
		},
	})
}
