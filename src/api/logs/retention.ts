/**
 * Retention (issue 17), run by one node under the `retention` lease every few minutes:
 * - closed ledger holds older than a day are rolled up (billing/roll-up.ts), always;
 * - consume logs older than `ConsumeLogRetentionDays` days are deleted, when the option is above 0
 *   (it is 0, keep everything, by default). Other log types (credits, the admin audit trail,
 *   system lines) are never touched.
 *
 * Both work in bounded batches, each its own short transaction with a pause after it, and a run
 * stops after a bounded number of batches: a backlog of years is worked off over several runs
 * while the relay's writes keep getting their turn (SQLite has one writer).
 *
 * The dashboard keeps the history: while its export is on, a log is deleted only once the export
 * can no longer recompute its hour (it recomputes from the hour before its newest bucket, see
 * api/data/export.ts), so every deleted call is already counted in `quota_data`.
 */
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from '@shared/quota-data-constants'
import { LOG_TYPE } from '@shared/log'
import { execute, type Store } from '@/db'
import type { Dependencies } from '@/dependencies'
import { startScheduledJob, type LeasedSchedule, type ScheduledJobInput } from '@/db/leased-schedule'
import { HOLD_ROLL_UP_AGE_SECONDS, rollUpClosedHolds } from '@/billing/roll-up'
import { nowSeconds } from '@/lib/clock'
import { newestExportedHour } from '../data/export'

export const RETENTION_LEASE = 'retention'
const RETENTION_INTERVAL_MS = 10 * 60_000
const RETENTION_TICK_MS = 60_000
/** Rows per transaction, transactions per run, and the pause that lets other writers in between. */
const RETENTION_BATCH = 1000
const RETENTION_BATCHES_PER_RUN = 50
const PAUSE_BETWEEN_BATCHES_MS = 20

const DELETE_CONSUME_LOGS = `DELETE FROM logs WHERE id IN (
	SELECT id FROM logs WHERE created_at < $1 AND type = ${LOG_TYPE.consume} LIMIT $2
)`

export type RetentionSummary = { holds: number; logs: number }

type BatchLimits = { batch?: number; batchesPerRun?: number; pauseMs?: number }

/** Runs `step` (one batch, answering how many rows it moved) until a batch comes back short or the run's batches are spent. */
async function inBatches(step: (batch: number) => Promise<number>, { batch = RETENTION_BATCH, batchesPerRun = RETENTION_BATCHES_PER_RUN, pauseMs = PAUSE_BETWEEN_BATCHES_MS }: BatchLimits) {
	let total = 0
	for (let run = 0; run < batchesPerRun; run++) {
		const moved = await step(batch)
		total += moved
		if (moved < batch) break
		await Bun.sleep(pauseMs)
	}
	return total
}

/** Before which time consume logs may go: the retention cutoff, held back to what the dashboard has counted. */
async function consumeLogCutoff(store: Store, retentionDays: number, dashboardOn: boolean, now: number): Promise<number | undefined> {
	const cutoff = now - retentionDays * SECONDS_PER_DAY
	if (!dashboardOn) return cutoff
	const newest = await newestExportedHour(store)
	// No bucket yet: the export has not run, so nothing is counted and nothing may go.
	if (newest === undefined) return undefined
	return Math.min(cutoff, newest - SECONDS_PER_HOUR)
}

export async function runRetention({ store, options }: Pick<Dependencies, 'store' | 'options'>, limits: BatchLimits = {}): Promise<RetentionSummary> {
	const now = nowSeconds()
	const holds = await inBatches((batch) => rollUpClosedHolds(store, now - HOLD_ROLL_UP_AGE_SECONDS, batch), limits)
	const retentionDays = options.get('ConsumeLogRetentionDays')
	if (retentionDays <= 0) return { holds, logs: 0 }
	const cutoff = await consumeLogCutoff(store, retentionDays, options.get('DataExportEnabled'), now)
	if (cutoff === undefined) return { holds, logs: 0 }
	const logs = await inBatches((batch) => store.transaction(function* () {
		return yield* execute(DELETE_CONSUME_LOGS, [cutoff, batch])
	}), limits)
	return { holds, logs }
}

/** The retention schedule; tests shorten the interval and the tick. */
export function startRetention(dependencies: Dependencies, input: ScheduledJobInput<RetentionSummary> & { limits?: BatchLimits }): LeasedSchedule {
	const { store, logger } = dependencies
	return startScheduledJob(store, logger, input, {
		lease: RETENTION_LEASE,
		description: 'retention',
		intervalMs: () => RETENTION_INTERVAL_MS,
		tickMs: RETENTION_TICK_MS,
		runAtStart: false,
		async run() {
			const summary = await runRetention(dependencies, input.limits)
			if (summary.holds || summary.logs) logger.info('retention', { ...summary })
			return summary
		},
	})
}
