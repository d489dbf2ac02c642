/**
 * Runs the dashboard export (export.ts) every `DataExportInterval` minutes while
 * `DataExportEnabled`, on one node: a Bun worker ticks, and on each tick that finds a run due this
 * node takes the `data-export` lease (design §9) and runs it. The holder renews the lease with
 * every run, for two intervals, so another node takes over only after the holder stopped. The
 * first run is due at the first tick, so a restarted node catches up at once.
 */
import type { Dependencies } from '@/dependencies'
import { releaseLease, takeLease } from '@/db/lease'
import { exportQuotaData, type ExportSummary } from './export'

export const DATA_EXPORT_LEASE = 'data-export'
/** How often the worker wakes the main thread to see whether a run is due. */
export const DATA_EXPORT_TICK_MS = 15_000
const MILLISECONDS_PER_MINUTE = 60_000
const MILLISECONDS_PER_SECOND = 1000
const LEASE_INTERVALS = 2

export interface DataExportScheduleInput {
	/** `src/workers/data-export.ts`, resolved by the caller (main.ts) so the compiled binary finds it. */
	workerUrl: URL
	/** This process (`<node>/<boot id>`), the lease holder. */
	holder: string
	/** Tests: a run every this many milliseconds instead of the option's minutes. */
	intervalMs?: number
	tickMs?: number
	/** Tests: told after every run this node made. */
	onRun?: (summary: ExportSummary) => void
}

export interface DataExportSchedule {
	stop(): Promise<void>
}

export function startDataExport(dependencies: Dependencies, input: DataExportScheduleInput): DataExportSchedule {
	const { store, options, logger } = dependencies
	const intervalMs = () => input.intervalMs ?? options.get('DataExportInterval') * MILLISECONDS_PER_MINUTE
	const worker = new Worker(input.workerUrl)
	let lastRun = Number.NEGATIVE_INFINITY
	let running: Promise<void> | undefined
	let stopped = false

	async function maybeRun() {
		const interval = intervalMs()
		if (!options.get('DataExportEnabled') || interval <= 0 || performance.now() - lastRun < interval) return
		const leaseSeconds = Math.ceil((interval * LEASE_INTERVALS) / MILLISECONDS_PER_SECOND)
		if (!await takeLease(store, DATA_EXPORT_LEASE, input.holder, leaseSeconds)) return
		lastRun = performance.now()
		const summary = await exportQuotaData(store)
		logger.debug('data export', { ...summary })
		input.onRun?.(summary)
	}

	worker.onmessage = () => {
		if (running || stopped) return
		running = maybeRun()
			.catch((error) => logger.error('the data export failed', { error: String(error) }))
			.finally(() => {
				running = undefined
			})
	}
	worker.onerror = (event) => logger.error('the data export worker failed', { error: String(event.message) })
	worker.postMessage({ tickMs: input.tickMs ?? DATA_EXPORT_TICK_MS })
	// Bun's workers can be unref'd (the DOM typings do not know it): the clock alone keeps no process alive.
	const bunWorker: Worker & { unref?: () => void } = worker
	bunWorker.unref?.()

	return {
		async stop() {
			stopped = true
			worker.terminate()
			await running
			await releaseLease(store, DATA_EXPORT_LEASE, input.holder).catch(() => {})
		},
	}
}
