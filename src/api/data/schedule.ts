/**
 * Runs the dashboard export (export.ts) every `DataExportInterval` minutes while
 * `DataExportEnabled`, on one node only, under the `data-export` lease
 * (src/db/leased-schedule.ts). The first run is due at the first tick, so a restarted node
 * catches up at once.
 */
import type { Dependencies } from '@/dependencies'
import { startScheduledJob, type LeasedSchedule, type ScheduledJobInput } from '@/db/leased-schedule'
import { exportQuotaData, type ExportSummary } from './export'

export const DATA_EXPORT_LEASE = 'data-export'
/** How often the worker wakes the main thread to see whether a run is due. */
const DATA_EXPORT_TICK_MS = 15_000
const MILLISECONDS_PER_MINUTE = 60_000

type DataExportScheduleInput = ScheduledJobInput<ExportSummary> & {
	/** src/workers/data-export.ts (export.ts), resolved by main.ts so that the compiled binary finds it. */
	exportWorkerUrl: URL
}

export type DataExportSchedule = LeasedSchedule

export function startDataExport(dependencies: Dependencies, input: DataExportScheduleInput): DataExportSchedule {
	const { store, options, logger } = dependencies
	return startScheduledJob(store, logger, input, {
		lease: DATA_EXPORT_LEASE,
		description: 'data export',
		intervalMs: () => options.get('DataExportInterval') * MILLISECONDS_PER_MINUTE,
		// Off while the dashboard is off.
		enabled: () => options.get('DataExportEnabled'),
		tickMs: DATA_EXPORT_TICK_MS,
		runAtStart: true,
		async run() {
			const summary = await exportQuotaData(store, input.exportWorkerUrl)
			logger.debug('data export', { ...summary })
			return summary
		},
	})
}
