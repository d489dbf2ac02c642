/**
 * Task rows and their money, in one unit of work each (docs/architecture.md#the-task-pipeline): recording an accepted task hands
 * its hold to the task; the report that finishes a task moves its row out of the unfinished states
 * with a compare-and-set on that state, and settles (SUCCESS) or returns (FAILURE) the hold in the
 * same transaction, so a task's end and its bill happen once however many nodes poll.
 */
import { storedLine, type StoredLogLine } from '@shared/messages/logs'
import { and, eq } from 'drizzle-orm'
import { isFinishedTaskStatus, TASK_STATUS } from '@shared/task-constants'
import { parseJsonObject } from '@/db/stores/channels'
import { isUnfinished } from '@/db/stores/task-status'
import type { OptionStore } from '@/db/stores/options'
import { rows, type Database, type Dialect, type Tables } from '@/db'
import { storableFields } from '@/db/stored-text'
import { settleWork } from '@/billing/holds'
import { adoptHoldForTask, returnTaskHold } from '@/billing/task-holds'
import { mergedDrawingData } from '@/db/stores/drawings'
import type { UpstreamTaskState } from '../providers/types'

/** Who pays for a task and at what price, kept in `private_data` for the log written when it ends. */
export interface TaskBilling {
	username: string
	token_id: number
	token_name: string
	group: string
	model: string
	model_price: number
	group_ratio: number
	channel_name: string
	ip: string
	/** Async tasks: the upstream's id (the client knows Ferry's own). */
	upstream_id?: string
	/** Priced in units (a video's seconds times its size factor): the price's multiplier. */
	call_ratio?: number
	/** The key of a multi-key channel the task was submitted with: its polls and reads use it too. */
	key_index?: number
	/** The model's name upstream (after the channel's mapping). */
	upstream_model?: string
	/** The plan whose subscription holds the task, for its log line; absent when the wallet does. */
	plan_name?: string
}

export function readBilling(privateData: string): TaskBilling {
	const data = parseJsonObject(privateData)
	const text = (key: string) => (typeof data[key] === 'string' ? data[key] as string : '')
	const number = (key: string) => (typeof data[key] === 'number' ? data[key] as number : 0)
	return {
		username: text('username'), token_id: number('token_id'), token_name: text('token_name'), group: text('group'), model: text('model'),
		model_price: number('model_price'), group_ratio: number('group_ratio'), channel_name: text('channel_name'), ip: text('ip'),
		upstream_id: text('upstream_id'),
		...(typeof data.call_ratio === 'number' ? { call_ratio: data.call_ratio } : {}),
		...(typeof data.key_index === 'number' ? { key_index: data.key_index } : {}),
		...(typeof data.upstream_model === 'string' ? { upstream_model: data.upstream_model } : {}),
		...(typeof data.plan_name === 'string' ? { plan_name: data.plan_name } : {}),
	}
}

export type { Drawing as DrawingRow } from '@/db/stores/drawings'
export type TaskRow = Tables['tasks']['$inferSelect']

/** What the units of work need besides the rows: the dialect (for settle) and the options read beforehand. */
export interface TaskBook {
	dialect: Dialect
	/** LogConsumeEnabled: whether a settled task writes its consume log. */
	logConsume: boolean
	now: number
	/** TaskTimeoutMinutes in seconds: a new task's hold is due that long after now. */
	lifetimeSeconds: number
}

/** What ended a task: the report's status, why (the hold's close reason) and the words for the user's log. */
interface TaskEnd {
	status: string
	holdReason: string
	describe: (amount: number) => StoredLogLine
}

/** What of a task row billing reads. */
type BilledTask = Pick<TaskRow, 'requestId' | 'quota' | 'cost' | 'channelId' | 'submitTime' | 'privateData'>

/** Settles a finished task's hold at its price with the consume log, or returns it with a log line. */
function* closeHold(tx: Database, tables: Tables, book: TaskBook, task: BilledTask, taskId: string, end: TaskEnd) {
	if (!task.requestId) return
	if (end.status !== TASK_STATUS.success) {
		yield* returnTaskHold(tx, tables, task.requestId, end.holdReason, end.describe)
		return
	}
	const billing = readBilling(task.privateData)
	yield* settleWork({
		requestId: task.requestId,
		actual: task.quota,
		cost: task.cost ?? undefined,
		channelId: task.channelId,
		log: book.logConsume ? {
			username: billing.username, tokenName: billing.token_name, modelName: billing.model, group: billing.group,
			promptTokens: 0, completionTokens: 0, useTime: Math.max(0, book.now - task.submitTime), isStream: false,
			channelName: billing.channel_name, ip: billing.ip, content: '',
			other: {
				model_price: billing.model_price, group_ratio: billing.group_ratio, ...(billing.call_ratio !== undefined ? { call_ratio: billing.call_ratio } : {}),
				// The key that took the submit, for admins, as a call's log names the key that answered it.
				group: billing.group, task_id: taskId, admin_info: { use_channel: [task.channelId], ...(billing.key_index !== undefined ? { key_index: billing.key_index } : {}) },
				...(billing.plan_name !== undefined ? { plan_name: billing.plan_name } : {}),
			},
		} : undefined,
	}, book.dialect)
}

/**
 * Inserts an accepted task (a drawing's values through db/stores/drawings.ts). A task the upstream
 * reported finished at once (an upload, a duplicate of a finished drawing) is billed here; any
 * other takes over its hold. Answers the row id. Its texts (the upstream's id, its words) are
 * stored as the databases can keep them (db/stored-text.ts).
 */
export function* recordTask(tx: Database, tables: Tables, book: TaskBook, values: Omit<Tables['tasks']['$inferInsert'], 'id'>) {
	const { tasks } = tables
	const [row] = yield* rows(tx.insert(tasks).values(storableFields(values)).returning())
	yield* startOrEnd(tx, tables, book, row!, row!.taskId, values.status ?? '')
	return row!.id
}

function* startOrEnd(tx: Database, tables: Tables, book: TaskBook, row: BilledTask, taskId: string, status: string) {
	if (!row.requestId) return
	if (isFinishedTaskStatus(status)) {
		yield* closeHold(tx, tables, book, row, taskId, { status, holdReason: 'task_failed', describe: (quota) => storedLine('task.failed_at_once', { task: taskId, quota }) })
		return
	}
	yield* adoptHoldForTask(row.requestId, book.now + book.lifetimeSeconds)
}

export type ReportOutcome = 'unchanged' | 'updated' | 'succeeded' | 'failed'

function differs<Row extends object>(row: Row, changes: Partial<Row>): boolean {
	return (Object.keys(changes) as (keyof Row)[]).some((key) => changes[key] !== row[key])
}

const PROGRESS_DONE = '100%'

/** A report's status, or the row's own when the upstream said nothing. */
const statusOf = (row: { status: string }, report: Pick<UpstreamTaskState, 'status'>) => report.status || row.status

/**
 * What a report changes on a task row: status, progress, failure, times, no charge (nor cost) once
 * failed, and the platform's result — a drawing's fields merge into its payload, another
 * platform's result replaces the kept one.
 */
function reportedChanges(row: TaskRow, report: UpstreamTaskState, status: string, now: number): Partial<TaskRow> {
	const finished = isFinishedTaskStatus(status)
	return {
		status,
		progress: status === TASK_STATUS.success ? PROGRESS_DONE : report.progress || row.progress,
		failReason: status === TASK_STATUS.failure ? report.failReason || row.failReason || 'the upstream reported the task failed' : row.failReason,
		startTime: report.startTime || row.startTime,
		finishTime: finished ? report.finishTime || row.finishTime || now : row.finishTime,
		...(status === TASK_STATUS.failure ? { quota: 0, cost: 0 } : {}),
		...(report.drawing
			? { data: mergedDrawingData(row.data, report.drawing), properties: report.drawing.properties || row.properties }
			: { data: report.data || row.data }),
	}
}

/**
 * Applies an upstream report (or Ferry's own verdict: timeout, lost channel) to a task row of any
 * platform. Writes only what changed, only while the row is unfinished; the write that finishes it bills it.
 * The report's texts are to be storable already (`storedReport`): the end's log line quotes them too.
 */
export function* applyTaskReport(tx: Database, tables: Tables, book: TaskBook, row: TaskRow, report: UpstreamTaskState, end: Omit<TaskEnd, 'status'>) {
	const status = statusOf(row, report)
	const finished = isFinishedTaskStatus(status)
	const changes = reportedChanges(row, report, status, book.now)
	if (!differs(row, changes)) return 'unchanged' as ReportOutcome
	const { tasks } = tables
	const [updated] = yield* rows(tx.update(tasks).set({ ...changes, updatedAt: book.now }).where(and(eq(tasks.id, row.id), isUnfinished(tasks.status))).returning({ id: tasks.id }))
	if (!updated) return 'unchanged' as ReportOutcome
	if (!finished) return 'updated' as ReportOutcome
	yield* closeHold(tx, tables, book, row, row.taskId, { ...end, status })
	return (status === TASK_STATUS.success ? 'succeeded' : 'failed') as ReportOutcome
}

/**
 * A report with its texts as the databases can keep them (db/stored-text.ts): an upstream's failure
 * may quote a prompt with a NUL in it, which would otherwise fail the row's write, and on Postgres
 * every round of polling after it, until the task timed out.
 */
export const storedReport = (report: UpstreamTaskState): UpstreamTaskState => storableFields(report)

const SECONDS_PER_MINUTE = 60

/** The options a round of task work reads once. */
export function taskBook(dialect: Dialect, options: Pick<OptionStore, 'get'>, now: number): TaskBook {
	return { dialect, logConsume: options.get('LogConsumeEnabled'), now, lifetimeSeconds: options.get('TaskTimeoutMinutes') * SECONDS_PER_MINUTE }
}
