/**
 * Holds of async tasks (docs/architecture.md#the-ledger): the hold reserved at submit lives as long as the task. Once the
 * upstream took the task, the hold becomes the task's (`TASK_HOLD_NODE`, deadline at the task's
 * timeout), so no restart of the submitting node frees it; the task's end settles it (SUCCESS) or
 * returns it with a log line the user sees (failure, refusal, timeout). The reconciler leaves the
 * hold of a task that is still alive alone (reconciler.ts).
 */
import type { StoredLogLine } from '@shared/messages/logs'
import { and, inArray } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { execute, rows, type Database, type Tables } from '@/db'
import { isUnfinished } from '@/db/stores/task-status'
import { storableFields } from '@/db/stored-text'
import { HOLD_STATE, voidHoldWork } from './holds'

/** `quota_holds.node` of a task's hold: no process owns it, the task does. */
export const TASK_HOLD_NODE = 'task'

const ADOPT_HOLD = `UPDATE quota_holds SET node = $2, deadline = $3 WHERE request_id = $1 AND state = '${HOLD_STATE.pending}'`

/** Makes a pending request hold the task's, due at `deadline` (unix seconds); answers whether it was still pending. */
export function* adoptHoldForTask(requestId: string, deadline: number) {
	return (yield* execute(ADOPT_HOLD, [requestId, TASK_HOLD_NODE, deadline])) === 1
}

/**
 * Returns a task's pending hold in full and tells the user why in their log (a system entry of 0
 * quota: the hold going back is not a credit). Answers the amount returned, or 0 when the hold
 * was no longer pending (another node closed it first). The line's texts are made storable
 * (db/stored-text.ts): the reason is the upstream's words, which may quote a prompt with a NUL in it.
 */
export function* returnTaskHold(tx: Database, tables: Tables, requestId: string, reason: string, line: (amount: number) => StoredLogLine) {
	const hold = yield* voidHoldWork(requestId, reason)
	if (!hold) return 0
	const { logs } = tables
	yield* rows(tx.insert(logs).values({
		userId: hold.userId, type: LOG_TYPE.system, requestId, tokenId: hold.tokenId, quota: 0, ...storableFields(line(hold.amount)),
	}).returning({ id: logs.id }))
	return hold.amount
}

/** Which of these request ids belong to a task (of any platform) that has not finished. */
function* liveTaskHolds(tx: Database, tables: Tables, requestIds: readonly string[]) {
	if (requestIds.length === 0) return new Set<string>()
	const { tasks } = tables
	const live = yield* rows(tx.select({ requestId: tasks.requestId }).from(tasks)
		.where(and(inArray(tasks.requestId, [...requestIds]), isUnfinished(tasks.status))))
	return new Set(live.map((row) => row.requestId))
}

/** The same for one id, for the reconciler's void (checked in the void's own transaction). */
export function* isLiveTaskHold(tx: Database, tables: Tables, requestId: string) {
	return (yield* liveTaskHolds(tx, tables, [requestId])).has(requestId)
}

