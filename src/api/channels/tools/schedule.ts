/**
 * Runs the channel health check every `ChannelTestIntervalMinutes` minutes (0 = off), on one node
 * only, under the `channel-health` lease (src/db/leased-schedule.ts).
 */
import type { Dependencies } from '@/dependencies'
import { startScheduledJob, type LeasedSchedule, type ScheduledJobInput } from '@/db/leased-schedule'
import { runHealthRound, type HealthRoundSummary } from './health'

const HEALTH_LEASE = 'channel-health'
/** How often the worker wakes the main thread to see whether a round is due. */
const HEALTH_TICK_MS = 15_000
const MILLISECONDS_PER_MINUTE = 60_000

type HealthScheduleInput = ScheduledJobInput<HealthRoundSummary>

export type HealthSchedule = LeasedSchedule

export function startChannelHealthCheck(dependencies: Dependencies, input: HealthScheduleInput): HealthSchedule {
	const { store, options, logger } = dependencies
	return startScheduledJob(store, logger, input, {
		lease: HEALTH_LEASE,
		description: 'channel health check',
		intervalMs: () => options.get('ChannelTestIntervalMinutes') * MILLISECONDS_PER_MINUTE,
		tickMs: HEALTH_TICK_MS,
		runAtStart: false,
		async run() {
			const summary = await runHealthRound(dependencies, { scheduled: true })
			if (summary.disabled.length || summary.enabled.length) logger.info('channel health check', { ...summary })
			return summary
		},
	})
}
