/**
 * A background job that runs every so often on one node only (design §9). A Bun worker keeps time
 * (a busy main thread never drifts it) and wakes the main thread, which owns the database; on each
 * tick that finds a run due, this node takes the job's lease and runs it. The holder renews the
 * lease with every run, for two intervals, so another node takes over only after the holder stopped.
 */
import type { Logger } from '@/lib/logger'
import type { Store } from './index'
import { releaseLease, takeLease } from './lease'

const MILLISECONDS_PER_SECOND = 1000
const LEASE_INTERVALS = 2

interface LeasedScheduleInput {
	/** The lease row's name. */
	lease: string
	/** A clock worker (src/workers/), resolved by the caller so the compiled binary finds it. */
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

/** What a caller gives to start one of the scheduled jobs (health check, dashboard export). */
export interface ScheduledJobInput<Summary> {
	/** The job's clock worker in src/workers/, resolved by the caller (main.ts) so the compiled binary finds it. */
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

export function startLeasedSchedule(store: Store, logger: Logger, input: LeasedScheduleInput): LeasedSchedule {
	const worker = new Worker(input.workerUrl)
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

	worker.onmessage = () => {
		if (running || stopped) return
		running = maybeRun()
			.catch((error) => logger.error(`the ${input.description} failed`, { error: String(error) }))
			.finally(() => {
				running = undefined
			})
	}
	worker.onerror = (event) => logger.error(`the ${input.description} worker failed`, { error: String(event.message) })
	worker.postMessage({ tickMs: input.tickMs })
	// Bun's workers can be unref'd (the DOM typings do not know it): the clock alone keeps no process alive.
	const bunWorker: Worker & { unref?: () => void } = worker
	bunWorker.unref?.()

	return {
		async stop() {
			stopped = true
			worker.terminate()
			await running
			await releaseLease(store, input.lease, input.holder).catch(() => {})
		},
	}
}
