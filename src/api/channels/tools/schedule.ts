/**
 * Runs the channel health check every `ChannelTestIntervalMinutes` minutes (0 = off), on one node
 * only: a Bun worker ticks, and on each tick that finds a round due this node takes the
 * `channel-health` lease (design §9) and runs the round. The holder renews the lease with every
 * round, for two intervals, so another node takes over only after the holder stopped.
 */
import type { Dependencies } from '@/dependencies'
import { runHealthRound, type HealthRoundSummary } from './health'
import { releaseLease, takeLease } from '@/db/lease'

export const HEALTH_LEASE = 'channel-health'
/** How often the worker wakes the main thread to see whether a round is due. */
export const HEALTH_TICK_MS = 15_000
const MILLISECONDS_PER_MINUTE = 60_000
const MILLISECONDS_PER_SECOND = 1000
const LEASE_INTERVALS = 2

export interface HealthScheduleInput {
	/** `src/workers/channel-health.ts`, resolved by the caller (main.ts) so the compiled binary finds it. */
	workerUrl: URL
	/** This process (`<node>/<boot id>`), the lease holder. */
	holder: string
	/** Tests: a round every this many milliseconds instead of the option's minutes. */
	intervalMs?: number
	tickMs?: number
	/** Tests: told after every round this node ran. */
	onRound?: (summary: HealthRoundSummary) => void
}

export interface HealthSchedule {
	stop(): Promise<void>
}

export function startChannelHealthCheck(dependencies: Dependencies, input: HealthScheduleInput): HealthSchedule {
	const { store, options, logger } = dependencies
	const intervalMs = () => input.intervalMs ?? options.get('ChannelTestIntervalMinutes') * MILLISECONDS_PER_MINUTE
	const worker = new Worker(input.workerUrl)
	let lastRound = performance.now()
	let running: Promise<void> | undefined
	let stopped = false

	async function maybeRun() {
		const interval = intervalMs()
		if (interval <= 0 || performance.now() - lastRound < interval) return
		const leaseSeconds = Math.ceil((interval * LEASE_INTERVALS) / MILLISECONDS_PER_SECOND)
		if (!await takeLease(store, HEALTH_LEASE, input.holder, leaseSeconds)) return
		lastRound = performance.now()
		const summary = await runHealthRound(dependencies)
		if (summary.disabled.length || summary.enabled.length) logger.info('channel health check', { ...summary })
		input.onRound?.(summary)
	}

	worker.onmessage = () => {
		if (running || stopped) return
		running = maybeRun()
			.catch((error) => logger.error('the channel health check failed', { error: String(error) }))
			.finally(() => {
				running = undefined
			})
	}
	worker.onerror = (event) => logger.error('the channel health worker failed', { error: String(event.message) })
	worker.postMessage({ tickMs: input.tickMs ?? HEALTH_TICK_MS })
	// Bun's workers can be unref'd (the DOM typings do not know it): the clock alone keeps no process alive.
	const bunWorker: Worker & { unref?: () => void } = worker
	bunWorker.unref?.()

	return {
		async stop() {
			stopped = true
			worker.terminate()
			await running
			await releaseLease(store, HEALTH_LEASE, input.holder).catch(() => {})
		},
	}
}
