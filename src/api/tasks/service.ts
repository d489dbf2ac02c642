/** Reading drawing and async tasks: everyone's for admins, the caller's own otherwise (seed 002 §7). */
import { and, count, desc, eq, gte, lte, ne, type SQL } from 'drizzle-orm'
import type { Page } from '@shared/api'
import type { AdminMidjourneyEntry, AdminTaskEntry, MidjourneyEntry, MidjourneyQuery, TaskEntry, TaskQuery } from '@shared/task'
import type { Dependencies } from '@/dependencies'
import { KEPT_RESPONSE_PLATFORM } from '@/db/stores/kept-responses'
import { readPage } from '../paging'
import { toMidjourneyEntry, toTaskEntry } from './view'

/** `userId` pins one user (the self calls); `admin` shows the channel and lets its filter apply. */
export type TaskScope = { userId?: number; admin: boolean }

/** Newest first; ids match exactly, times bound the submit time. */
export async function listDrawings(dependencies: Dependencies, query: MidjourneyQuery, scope: TaskScope): Promise<Page<MidjourneyEntry | AdminMidjourneyEntry>> {
	const { store } = dependencies
	const { midjourneys } = store.tables
	const conditions: SQL[] = []
	if (scope.userId !== undefined) conditions.push(eq(midjourneys.userId, scope.userId))
	if (scope.admin && query.channel_id) conditions.push(eq(midjourneys.channelId, query.channel_id))
	if (query.mj_id) conditions.push(eq(midjourneys.mjId, query.mj_id))
	if (query.start_timestamp) conditions.push(gte(midjourneys.submitTime, query.start_timestamp))
	if (query.end_timestamp) conditions.push(lte(midjourneys.submitTime, query.end_timestamp))
	const where = and(...conditions)
	return readPage(query, (limit, offset) => store.db.select().from(midjourneys).where(where).orderBy(desc(midjourneys.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(midjourneys).where(where), (row) => toMidjourneyEntry(dependencies, row, scope.admin))
}

export async function listTasks({ store }: Dependencies, query: TaskQuery, scope: TaskScope): Promise<Page<TaskEntry | AdminTaskEntry>> {
	const { tasks } = store.tables
	// The Responses API's records of which channel keeps a response share the table; they are no tasks.
	const conditions: SQL[] = [ne(tasks.platform, KEPT_RESPONSE_PLATFORM)]
	if (scope.userId !== undefined) conditions.push(eq(tasks.userId, scope.userId))
	if (scope.admin && query.channel_id) conditions.push(eq(tasks.channelId, query.channel_id))
	if (query.task_id) conditions.push(eq(tasks.taskId, query.task_id))
	if (query.start_timestamp) conditions.push(gte(tasks.submitTime, query.start_timestamp))
	if (query.end_timestamp) conditions.push(lte(tasks.submitTime, query.end_timestamp))
	const where = and(...conditions)
	return readPage(query, (limit, offset) => store.db.select().from(tasks).where(where).orderBy(desc(tasks.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(tasks).where(where), (row) => toTaskEntry(row, scope.admin))
}
