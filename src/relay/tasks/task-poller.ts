/**
 * What a task platform brings to the polling round (polling.ts): which of its unfinished rows to
 * read per round and how to ask after them. A platform is polled when its poller is in the list of
 * pollers.ts; the round applies every report with the one compare-and-set of task-rows.ts.
 */
import type { LogLineCode } from '@shared/messages/logs'
import { TASK_STATUS } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import type { RelayServices } from '../services'
import type { TaskPlatform, UpstreamTaskState } from '../providers/types'
import type { ReportOutcome, TaskRow } from './task-rows'

/** Why a task's hold went back: the hold's close reason. */
export type TaskEndReason = 'task_failed' | 'task_timeout' | 'channel_gone'

export interface PollRound {
	dependencies: Dependencies
	relay: RelayServices
	/** Applies a report to one row in a transaction of its own, and counts its outcome. */
	apply(row: TaskRow, report: UpstreamTaskState, reason: TaskEndReason): Promise<ReportOutcome>
}

export interface TaskPoller {
	platform: TaskPlatform
	/** The user's log line when a task of this platform fails and its hold goes back. */
	failedLine: LogLineCode
	/** Unfinished rows read per round, oldest first. */
	roundLimit: number
	/** Asks after these rows and applies what the upstream reports; a row whose channel is gone fails. */
	poll(round: PollRound, rows: TaskRow[]): Promise<void>
}

/** Ferry's own verdict on a task, as a report. */
export const failureReport = (failReason: string): UpstreamTaskState => ({ id: '', status: TASK_STATUS.failure, progress: '', failReason, submitTime: 0, startTime: 0, finishTime: 0 })
