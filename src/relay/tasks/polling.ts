/**
 * One round of task polling (docs/operations/several-nodes.md#background-jobs; run by schedule.ts on one node at a time): tasks that
 * outlived TaskTimeoutMinutes fail first, then every unfinished task is asked after with one
 * batched fetch per channel, and each report is applied with a compare-and-set (task-rows.ts), so
 * a task's end, and its settle or refund, happens once even when nodes overlap. Work per round is
 * bounded: the oldest unfinished tasks first, at most ROUND_LIMIT of each kind.
 */
import { storedLine } from '@shared/messages/logs'
import { and, asc, eq, inArray, lt } from 'drizzle-orm'
import { TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import { readableChannels, type RoutableChannel, toRoutableChannel } from '@/db/stores/channels'
import { isUnfinished } from '@/db/stores/task-status'
import { nowSeconds } from '@/lib/clock'
import type { RelayServices } from '../services'
import { adaptorFor } from '../providers/registry'
import type { TaskAdaptor, UpstreamTaskState } from '../providers/types'
import { scrubSecrets } from '../upstream/messages'
import { pollVideos } from './videos/video-polling'
import { applyDrawingReport, applyTaskReport, type DrawingRow, readBilling, type ReportOutcome, type TaskBook, taskBook, type TaskRow } from './task-rows'

/** Unfinished tasks of each kind read per round (new-api reads up to 1 000; one fetch per channel carries them). */
const ROUND_LIMIT = 500
/** Timed-out tasks of each kind failed per round. */
const TIMEOUT_SWEEP_LIMIT = 100
const FETCH_TIMEOUT_MS = 30_000
const SECONDS_PER_MINUTE = 60

export interface PollSummary {
	/** Tasks asked after upstream. */
	polled: number
	updated: number
	succeeded: number
	failed: number
	timedOut: number
}

type Tally = Omit<PollSummary, 'polled' | 'timedOut'>
const count = (tally: Tally, outcome: ReportOutcome) => {
	if (outcome !== 'unchanged') tally[outcome]++
}

const failure = (failReason: string): UpstreamTaskState => ({ id: '', status: TASK_STATUS.failure, progress: '', failReason, submitTime: 0, startTime: 0, finishTime: 0 })

/** The channels by id, keys decrypted, whatever their status: a disabled channel's tasks still finish. */
export async function channelsById({ store, secrets, logger }: Dependencies, ids: number[]): Promise<Map<number, RoutableChannel>> {
	const { channels } = store.tables
	const records = ids.length ? await store.db.select().from(channels).where(inArray(channels.id, ids)) : []
	const readable = readableChannels(records, (channel) => toRoutableChannel(secrets, channel), (channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId }))
	return new Map(readable.map((channel) => [channel.id, channel]))
}

/** Asks the channel after `ids` in one request; undefined (and a warning) when it cannot answer. */
async function fetchReports(dependencies: Dependencies, relay: RelayServices, channel: RoutableChannel, adaptor: TaskAdaptor, ids: string[]) {
	const upstream = adaptor.fetchRequest(channel, ids)
	try {
		const response = await relay.outbound(upstream.url, { method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
		const text = await response.text()
		if (!response.ok) throw new Error(`the upstream answered ${response.status}`)
		const reports = adaptor.readFetch(text)
		return new Map(reports.map((report) => [report.id, { ...report, failReason: report.failReason && scrubSecrets(report.failReason, channel) }]))
	} catch (error) {
		dependencies.logger.warn('polling a channel\'s tasks failed', { channelId: channel.id, reason: scrubSecrets(String((error as Error).message ?? error), channel) })
		return undefined
	}
}

/**
 * Groups the rows by channel and applies what each channel reports; `apply` runs one row's report
 * in a transaction of its own. Rows whose channel is gone fail (and are refunded).
 */
async function pollByChannel<Row extends { channelId: number }>(
	dependencies: Dependencies, relay: RelayServices, platform: 'midjourney' | 'suno', rows: Row[],
	upstreamId: (row: Row) => string, apply: (row: Row, report: UpstreamTaskState, reason: string) => Promise<ReportOutcome>, tally: Tally,
) {
	const byChannel = new Map<number, Row[]>()
	for (const row of rows) byChannel.set(row.channelId, [...(byChannel.get(row.channelId) ?? []), row])
	const channels = await channelsById(dependencies, [...byChannel.keys()])
	for (const [channelId, channelRows] of byChannel) {
		const channel = channels.get(channelId)
		const adaptor = channel && adaptorFor(channel.type)?.tasks
		if (!channel || adaptor?.platform !== platform) {
			for (const row of channelRows) count(tally, await apply(row, failure('the channel that ran the task no longer exists'), 'channel_gone'))
			continue
		}
		const known = channelRows.filter((row) => upstreamId(row) !== '')
		for (const row of channelRows) if (upstreamId(row) === '') count(tally, await apply(row, failure('the upstream gave the task no id'), 'task_failed'))
		if (known.length === 0) continue
		const reports = await fetchReports(dependencies, relay, channel, adaptor, known.map(upstreamId))
		if (!reports) continue
		for (const row of known) {
			const report = reports.get(upstreamId(row))
			if (report) count(tally, await apply(row, report, 'task_failed'))
		}
	}
}

export async function pollTasks(dependencies: Dependencies, relay: RelayServices): Promise<PollSummary> {
	const { store, options } = dependencies
	const { midjourneys, tasks } = store.tables
	const book: TaskBook = taskBook(relay.ledger.dialect, options, nowSeconds())
	const timeoutMinutes = options.get('TaskTimeoutMinutes')
	const tally: Tally = { updated: 0, succeeded: 0, failed: 0 }
	const applyDrawing = (row: DrawingRow, report: UpstreamTaskState, reason: string) => relay.ledger.transaction((tx, tables) =>
		applyDrawingReport(tx, tables, book, row, report, { holdReason: reason, describe: (quota) => storedLine('task.drawing_failed', { task: row.mjId || row.id, reason: report.failReason, quota }) }))
	const applyTask = (row: TaskRow, report: UpstreamTaskState, reason: string) => relay.ledger.transaction((tx, tables) =>
		applyTaskReport(tx, tables, book, row, report, { holdReason: reason, describe: (quota) => storedLine('task.failed', { task: row.taskId, reason: report.failReason, quota }) }))

	// Timeouts first: a task past its time fails whatever the upstream would say now.
	const cutoff = book.now - timeoutMinutes * SECONDS_PER_MINUTE
	const timeout = failure(`the task did not finish within ${timeoutMinutes} minutes`)
	let timedOut = 0
	const lateDrawings = await store.db.select().from(midjourneys)
		.where(and(isUnfinished(midjourneys.status), lt(midjourneys.submitTime, cutoff))).orderBy(asc(midjourneys.id)).limit(TIMEOUT_SWEEP_LIMIT)
	for (const row of lateDrawings) if (await applyDrawing(row, timeout, 'task_timeout') === 'failed') timedOut++
	const lateTasks = await store.db.select().from(tasks)
		.where(and(isUnfinished(tasks.status), lt(tasks.submitTime, cutoff))).orderBy(asc(tasks.id)).limit(TIMEOUT_SWEEP_LIMIT)
	for (const row of lateTasks) if (await applyTask(row, timeout, 'task_timeout') === 'failed') timedOut++

	const drawings = await store.db.select().from(midjourneys)
		.where(isUnfinished(midjourneys.status)).orderBy(asc(midjourneys.id)).limit(ROUND_LIMIT)
	await pollByChannel(dependencies, relay, 'midjourney', drawings, (row) => row.mjId, applyDrawing, tally)
	const songs = await store.db.select().from(tasks)
		.where(and(isUnfinished(tasks.status), eq(tasks.platform, TASK_PLATFORM.suno))).orderBy(asc(tasks.id)).limit(ROUND_LIMIT)
	await pollByChannel(dependencies, relay, 'suno', songs, (row) => readBilling(row.privateData).upstream_id ?? '', applyTask, tally)
	const videos = await pollVideos(dependencies, relay, applyTask, (outcome) => count(tally, outcome))
	return { polled: drawings.length + songs.length + videos, ...tally, timedOut }
}
