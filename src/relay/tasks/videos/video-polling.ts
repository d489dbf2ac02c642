/**
 * Polling video tasks, in the round of polling.ts (one node at a time, under its lease): each
 * unfinished video is asked after with one request to its channel under the key that submitted
 * it, and the report is applied with the compare-and-set of task-rows.ts, so its end — the settle
 * on `completed`, the full refund on `failed` or on a completion without a video — happens once.
 */
import { and, asc, eq } from 'drizzle-orm'
import { TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import { isUnfinished } from '@/db/stores/task-status'
import { nowSeconds } from '@/lib/clock'
import type { UpstreamTaskState } from '../../providers/types'
import type { RelayServices } from '../../services'
import { scrubSecrets } from '../../upstream/messages'
import { adaptorContext } from '../../upstream/open'
import { channelsById } from '../polling'
import type { ReportOutcome, TaskRow } from '../task-rows'
import { requestInit, videoChannelOf } from './video-channel'
import { videoReport } from './video-rows'

/** Videos asked after per round: one request each. */
const VIDEO_ROUND_LIMIT = 100
const POLL_TIMEOUT_MS = 30_000

const failure = (failReason: string): UpstreamTaskState => ({ id: '', status: TASK_STATUS.failure, progress: '', failReason, submitTime: 0, startTime: 0, finishTime: 0 })

type Apply = (row: TaskRow, report: UpstreamTaskState, reason: string) => Promise<ReportOutcome>

export async function pollVideos(dependencies: Dependencies, relay: RelayServices, apply: Apply, count: (outcome: ReportOutcome) => void): Promise<number> {
	const { store, logger } = dependencies
	const { tasks } = store.tables
	const rows = await store.db.select().from(tasks)
		.where(and(isUnfinished(tasks.status), eq(tasks.platform, TASK_PLATFORM.video))).orderBy(asc(tasks.id)).limit(VIDEO_ROUND_LIMIT)
	const known = await channelsById(dependencies, [...new Set(rows.map((row) => row.channelId))])
	for (const row of rows) {
		const found = await videoChannelOf(dependencies, relay, row, known)
		if (!found) {
			count(await apply(row, failure('the channel that ran the task no longer exists'), 'channel_gone'))
			continue
		}
		const { channel, videos, upstreamId, upstreamModel } = found
		if (!upstreamId) {
			count(await apply(row, failure('the upstream gave the task no id'), 'task_failed'))
			continue
		}
		try {
			const upstream = await videos.pollRequest(channel, upstreamId, upstreamModel, adaptorContext(dependencies, relay, AbortSignal.timeout(POLL_TIMEOUT_MS)))
			const response = await relay.outbound(upstream.url, requestInit(upstream, AbortSignal.timeout(POLL_TIMEOUT_MS)))
			const text = await response.text()
			if (!response.ok) throw new Error(`the upstream answered ${response.status}`)
			const report = videoReport(upstreamId, videos.readPoll(text))
			// The upstream names no start: the first poll that finds the video under way or done does.
			const startTime = row.startTime || (report.status === TASK_STATUS.queued ? 0 : nowSeconds())
			count(await apply(row, { ...report, startTime, failReason: report.failReason && scrubSecrets(report.failReason, channel) }, 'task_failed'))
		} catch (error) {
			logger.warn('polling a video task failed', { channelId: channel.id, reason: scrubSecrets(String((error as Error).message ?? error), channel) })
		}
	}
	return rows.length
}
