/** Reading usage logs: everyone's for admins, one user's for the user (docs/specification/logs-and-dashboard.md#calls). */
import { and, count, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm'
import type { Page } from '@shared/api'
import type { Language } from '@shared/messages'
import { LOG_STAT_WINDOW_SECONDS, LOG_TYPE, type AdminLogEntry, type LogEntry, type LogQuery, type LogStat } from '@shared/log'
import type { Store } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { NOT_A_CHANNEL_TEST } from '@/db/quota-buckets'
import { readPage } from '../paging'
import { toLogEntry } from './view'

/**
 * Whose logs and how much of them: `userId` pins one user (the self calls), `admin` shows the
 * channel columns and admin details and lets the channel filter apply.
 */
export type LogScope = { userId?: number; admin: boolean }

/**
 * Token, model and user names match exactly, as in the peers' consoles (a name is picked from a
 * known list), which also lets the indexes on them serve the query.
 */
function filters(store: Store, query: LogQuery, scope: LogScope, { time }: { time: boolean }): SQL[] {
	const { logs } = store.tables
	const conditions: SQL[] = []
	if (scope.userId !== undefined) conditions.push(eq(logs.userId, scope.userId))
	else if (query.username) conditions.push(eq(logs.username, query.username))
	if (scope.admin && query.channel) conditions.push(eq(logs.channelId, query.channel))
	if (query.token_name) conditions.push(eq(logs.tokenName, query.token_name))
	if (query.model_name) conditions.push(eq(logs.modelName, query.model_name))
	if (query.group) conditions.push(eq(logs.group, query.group))
	if (query.request_id) conditions.push(eq(logs.requestId, query.request_id))
	if (time && query.start_timestamp) conditions.push(gte(logs.createdAt, query.start_timestamp))
	if (time && query.end_timestamp) conditions.push(lte(logs.createdAt, query.end_timestamp))
	return conditions
}

/** Newest first; type 0 or none lists every type. */
export async function listLogs({ store }: Dependencies, query: LogQuery, scope: LogScope, language: Language): Promise<Page<LogEntry | AdminLogEntry>> {
	const { logs } = store.tables
	const conditions = filters(store, query, scope, { time: true })
	if (query.type) conditions.push(eq(logs.type, query.type))
	const where = and(...conditions)
	return readPage(query, (limit, offset) => store.db.select().from(logs).where(where).orderBy(desc(logs.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(logs).where(where), (log) => toLogEntry(log, scope.admin, language))
}

/**
 * Totals of consume entries whatever `type` says: quota over the filters and time range, rpm and
 * tpm over the same filters in the last minute instead of the time range. Channel tests are not
 * counted: nobody was charged for them.
 */
export async function logStats({ store }: Dependencies, query: LogQuery, scope: LogScope): Promise<LogStat> {
	const { logs } = store.tables
	const consume = and(eq(logs.type, LOG_TYPE.consume), sql.raw(NOT_A_CHANNEL_TEST))!
	const recent = gte(logs.createdAt, nowSeconds() - LOG_STAT_WINDOW_SECONDS)
	const [[spent], [lastMinute]] = await Promise.all([
		store.db.select({ quota: sql<number>`coalesce(sum(${logs.quota}), 0)`.mapWith(Number) })
			.from(logs).where(and(consume, ...filters(store, query, scope, { time: true }))),
		store.db.select({
			requests: count(),
			tokens: sql<number>`coalesce(sum(${logs.promptTokens} + ${logs.completionTokens}), 0)`.mapWith(Number),
		}).from(logs).where(and(consume, recent, ...filters(store, query, scope, { time: false }))),
	])
	return { quota: spent?.quota ?? 0, rpm: lastMinute?.requests ?? 0, tpm: lastMinute?.tokens ?? 0 }
}
