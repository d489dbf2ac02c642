/** Reading drawing and async tasks: everyone's for admins, the caller's own otherwise (docs/specification/tasks.md#the-task-lists). */
import { and, type Column, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm'
import type { Page } from '@shared/api'
import type { AdminMidjourneyEntry, AdminTaskEntry, MidjourneyEntry, MidjourneyQuery, TaskEntry, TaskListQuery, TaskQuery } from '@shared/task'
import type { Dependencies } from '@/dependencies'
import { readPage } from '../paging'
import { toMidjourneyEntry, toTaskEntry } from './view'

/** `userId` pins one user (the self calls); `admin` shows the channel and lets its filter apply. */
export type TaskScope = { userId?: number; admin: boolean }

/** The columns both task tables filter on. */
type TaskColumns = { userId: Column; channelId: Column; submitTime: Column }

/** The scope's and the query's conditions, with the id column matched exactly; times bound the submit time. */
function taskConditions(columns: TaskColumns, query: TaskListQuery, scope: TaskScope, id: { column: Column; value?: string }): SQL[] {
	const conditions: SQL[] = []
	if (scope.userId !== undefined) conditions.push(eq(columns.userId, scope.userId))
	if (scope.admin && query.channel_id) conditions.push(eq(columns.channelId, query.channel_id))
	if (id.value) conditions.push(eq(id.column, id.value))
	if (query.start_timestamp) conditions.push(gte(columns.submitTime, query.start_timestamp))
	if (query.end_timestamp) conditions.push(lte(columns.submitTime, query.end_timestamp))
	return conditions
}

/** Newest first. */
export async function listDrawings(dependencies: Dependencies, query: MidjourneyQuery, scope: TaskScope): Promise<Page<MidjourneyEntry | AdminMidjourneyEntry>> {
	const { store } = dependencies
	const { midjourneys } = store.tables
	const where = and(...taskConditions(midjourneys, query, scope, { column: midjourneys.mjId, value: query.mj_id }))
	return readPage(query, (limit, offset) => store.db.select().from(midjourneys).where(where).orderBy(desc(midjourneys.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(midjourneys).where(where), (row) => toMidjourneyEntry(dependencies, row, scope.admin))
}

export async function listTasks({ store, secrets }: Dependencies, query: TaskQuery, scope: TaskScope): Promise<Page<TaskEntry | AdminTaskEntry>> {
	const { tasks } = store.tables
	const where = and(...taskConditions(tasks, query, scope, { column: tasks.taskId, value: query.task_id }))
	return readPage(query, (limit, offset) => store.db.select().from(tasks).where(where).orderBy(desc(tasks.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(tasks).where(where), (row) => toTaskEntry({ secrets }, row, scope.admin))
}
