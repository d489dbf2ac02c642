/**
 * One round of task polling (docs/operations/several-nodes.md#background-jobs; run by schedule.ts on one node at a time): tasks of
 * any platform that outlived TaskTimeoutMinutes fail first, then each platform's poller (pollers.ts)
 * asks after its unfinished tasks, and each report is applied with a compare-and-set (task-rows.ts),
 * so a task's end, and its settle or refund, happens once even when nodes overlap. Work per round
 * is bounded: the oldest unfinished tasks first, at most a poller's `roundLimit` of each platform.
 */
import { storedLine } from '@shared/messages/logs'
import { and, asc, eq, lt } from 'drizzle-orm'
import type { Dependencies } from '@/dependencies'
import { isUnfinished } from '@/db/stores/task-status'
import { nowSeconds } from '@/lib/clock'
import type { RelayServices } from '../services'
import type { UpstreamTaskState } from '../providers/types'
import { TASK_POLLERS } from './pollers'
import { failureReport, type PollRound, type TaskEndReason } from './task-poller'
import { applyTaskReport, type ReportOutcome, storedReport, type TaskBook, taskBook, type TaskRow } from './task-rows'

const SECONDS_PER_MINUTE = 60
/** Timed-out tasks failed per round. */
const TIMEOUT_SWEEP_LIMIT = 100

export interface PollSummary {
	/** Tasks asked after upstream. */
	polled: number
	updated: number
	succeeded: number
	failed: number
	timedOut: number
}

export async function pollTasks(dependencies: Dependencies, relay: RelayServices): Promise<PollSummary> {
	const { store, options } = dependencies
	const { tasks } = store.tables
	const book: TaskBook = taskBook(relay.ledger.dialect, options, nowSeconds())
	const timeoutMinutes = options.get('TaskTimeoutMinutes')
	const summary: PollSummary = { polled: 0, updated: 0, succeeded: 0, failed: 0, timedOut: 0 }
	const failedLine = (row: TaskRow) => TASK_POLLERS.find((poller) => poller.platform === row.platform)?.failedLine ?? 'task.failed'
	const apply = (row: TaskRow, upstreamReport: UpstreamTaskState, reason: TaskEndReason): Promise<ReportOutcome> => {
		const report = storedReport(upstreamReport)
		return relay.ledger.transaction((tx, tables) => applyTaskReport(tx, tables, book, row, report, {
			holdReason: reason,
			describe: (quota) => storedLine(failedLine(row), { task: row.taskId || row.id, reason: report.failReason, quota }),
		}))
	}
	const round: PollRound = {
		dependencies, relay,
		async apply(row, report, reason) {
			const outcome = await apply(row, report, reason)
			if (outcome !== 'unchanged') summary[outcome]++
			return outcome
		},
	}

	// Timeouts first: a task past its time fails whatever the upstream would say now.
	const cutoff = book.now - timeoutMinutes * SECONDS_PER_MINUTE
	const timeout = failureReport(`the task did not finish within ${timeoutMinutes} minutes`)
	const late = await store.db.select().from(tasks)
		.where(and(isUnfinished(tasks.status), lt(tasks.submitTime, cutoff))).orderBy(asc(tasks.id)).limit(TIMEOUT_SWEEP_LIMIT)
	for (const row of late) if (await apply(row, timeout, 'task_timeout') === 'failed') summary.timedOut++

	for (const poller of TASK_POLLERS) {
		const rows = await store.db.select().from(tasks)
			.where(and(isUnfinished(tasks.status), eq(tasks.platform, poller.platform))).orderBy(asc(tasks.id)).limit(poller.roundLimit)
		summary.polled += rows.length
		if (rows.length) await poller.poll(round, rows)
	}
	return summary
}
