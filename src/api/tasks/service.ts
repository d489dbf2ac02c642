/**
 * The task logs (docs/specification/tasks.md#the-task-lists): everyone's for admins, the caller's own otherwise. Both read
 * `tasks`; the drawing log (`/api/mj`) shows the drawing platform, the task log (`/api/task`) every
 * other, each with its own id filter and entry (view.ts) — the differences are the logs' data below.
 */
import { and, count, desc, eq, gte, lte, ne, type SQL } from 'drizzle-orm'
import type { Page } from '@shared/api'
import { TASK_PLATFORM } from '@shared/task-constants'
import type { AdminMidjourneyEntry, AdminTaskEntry, MidjourneyEntry, MidjourneyQuery, TaskEntry, TaskListQuery, TaskQuery } from '@shared/task'
import type { Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { readPage } from '../paging'
import { toMidjourneyEntry, toTaskEntry, type ViewDependencies } from './view'

/** `userId` pins one user (the self calls); `admin` shows the channel and lets its filter apply. */
export type TaskScope = { userId?: number; admin: boolean }

type TaskRecord = Tables['tasks']['$inferSelect']

export interface TaskLog<Query extends TaskListQuery, Entry> {
	/** Which platforms the log shows. */
	platforms: (tasks: Tables['tasks']) => SQL
	/** The query's task id, matched exactly. */
	taskId: (query: Query) => string | undefined
	entry: (dependencies: ViewDependencies, row: TaskRecord, admin: boolean) => Entry
}

export const DRAWING_LOG: TaskLog<MidjourneyQuery, MidjourneyEntry | AdminMidjourneyEntry> = {
	platforms: (tasks) => eq(tasks.platform, TASK_PLATFORM.midjourney),
	taskId: (query) => query.mj_id,
	entry: toMidjourneyEntry,
}

export const ASYNC_TASK_LOG: TaskLog<TaskQuery, TaskEntry | AdminTaskEntry> = {
	platforms: (tasks) => ne(tasks.platform, TASK_PLATFORM.midjourney),
	taskId: (query) => query.task_id,
	entry: toTaskEntry,
}

/** The scope's and the query's conditions; times bound the submit time. Newest first. */
export async function listTaskLog<Query extends TaskListQuery, Entry>(dependencies: Dependencies, log: TaskLog<Query, Entry>, query: Query, scope: TaskScope): Promise<Page<Entry>> {
	const { store } = dependencies
	const { tasks } = store.tables
	const taskId = log.taskId(query)
	const conditions: SQL[] = [log.platforms(tasks)]
	if (scope.userId !== undefined) conditions.push(eq(tasks.userId, scope.userId))
	if (scope.admin && query.channel_id) conditions.push(eq(tasks.channelId, query.channel_id))
	if (taskId) conditions.push(eq(tasks.taskId, taskId))
	if (query.start_timestamp) conditions.push(gte(tasks.submitTime, query.start_timestamp))
	if (query.end_timestamp) conditions.push(lte(tasks.submitTime, query.end_timestamp))
	const where = and(...conditions)
	return readPage(query, (limit, offset) => store.db.select().from(tasks).where(where).orderBy(desc(tasks.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(tasks).where(where), (row) => log.entry(dependencies, row, scope.admin))
}
