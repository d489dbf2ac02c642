/**
 * Runs the channel health check every `ChannelTestIntervalMinutes` minutes (0 = off), on one node
 * only, under the `channel-health` lease (src/db/leased-schedule.ts).
 */
import type { Dependencies } from '@/dependencies'
import { startLeasedSchedule, type LeasedSchedule, type ScheduledJobInput } from '@/db/leased-schedule'
import { runHealthRound, type HealthRoundSummary } from './health'

const HEALTH_LEASE = 'channel-health'
/** How often the worker wakes the main thread to see whether a round is due. */
const HEALTH_TICK_MS = 15_000
const MILLISECONDS_PER_MINUTE = 60_000

type HealthScheduleInput = ScheduledJobInput<HealthRoundSummary>

export type HealthSchedule = LeasedSchedule

export function startChannelHealthCheck(dependencies: Dependencies, input: HealthScheduleInput): HealthSchedule {
	const { store, options, logger } = dependencies
	return startLeasedSchedule(store, logger, {
		lease: HEALTH_LEASE,
		workerUrl: input.workerUrl,
		holder: input.holder,
		intervalMs: () => input.intervalMs ?? options.get('ChannelTestIntervalMinutes') * MILLISECONDS_PER_MINUTE,
		tickMs: input.tickMs ?? HEALTH_TICK_MS,
		runAtStart: false,
		description: 'channel health check',
		async run() {
			const summary = await runHealthRound(dependencies)
			if (summary.disabled.length || summary.enabled.length) logger.info('channel health check', { ...summary })
			input.onRun?.(summary)
		},
	})
}
