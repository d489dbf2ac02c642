/**
 * Polls unfinished tasks every `TaskPollingIntervalSeconds` seconds (default 15, 0 = off) on one
 * node only, under the `task-polling` lease (src/db/leased-schedule.ts; its clock is a Bun worker).
 * The first round is due at the first tick, so a restarted node catches up at once.
 */
import type { Dependencies } from '@/dependencies'
import { startScheduledJob, type LeasedSchedule, type ScheduledJobInput } from '@/db/leased-schedule'
import type { RelayServices } from '../services'
import { pollTasks, type PollSummary } from './polling'

export const TASK_POLLING_LEASE = 'task-polling'
/** How often the worker wakes the main thread to see whether a round is due. */
const TASK_POLLING_TICK_MS = 5_000
const MILLISECONDS_PER_SECOND = 1000

export function startTaskPolling(dependencies: Dependencies, relay: RelayServices, input: ScheduledJobInput<PollSummary>): LeasedSchedule {
	const { store, options, logger } = dependencies
	return startScheduledJob(store, logger, input, {
		lease: TASK_POLLING_LEASE,
		description: 'task polling',
		intervalMs: () => options.get('TaskPollingIntervalSeconds') * MILLISECONDS_PER_SECOND,
		tickMs: TASK_POLLING_TICK_MS,
		runAtStart: true,
		async run() {
			const summary = await pollTasks(dependencies, relay)
			if (summary.succeeded || summary.failed || summary.timedOut) logger.info('task polling', { ...summary })
			return summary
		},
	})
}
