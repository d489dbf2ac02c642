/**
 * "This task has not finished", written exactly as the partial index on unfinished tasks is
 * declared (schema twins: `tasks_unfinished_index`):
 * a planner uses a partial index only for a query whose condition is the index's own, with its
 * literal values, never bound parameters.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { FINISHED_TASK_STATUSES } from '@shared/task-constants'

const FINISHED_LIST = sql.raw(FINISHED_TASK_STATUSES.map((status) => `'${status}'`).join(', '))

export const isUnfinished = (status: SQLWrapper): SQL => sql`${status} NOT IN (${FINISHED_LIST})`
