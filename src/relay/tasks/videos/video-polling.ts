/**
 * The poller of video tasks (the round of ../polling.ts, one node at a time, under its lease): each
 * unfinished video is asked after with one request to its channel under the key that submitted
 * it, through its provider's video adaptor (`pollRequest`, `readPoll`); the round's compare-and-set
 * makes its end — the settle on `completed`, the full refund on `failed` or on a completion
 * without a video — happen once.
 */
import { TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import { nowSeconds } from '@/lib/clock'
import { scrubSecrets } from '../../upstream/messages'
import { adaptorContext } from '../../upstream/open'
import { channelsById } from '../task-channels'
import { failureReport, type TaskPoller } from '../task-poller'
import { requestInit, videoChannelOf } from './video-channel'
import { videoReport } from './video-rows'

/** Videos asked after per round: one request each. */
const VIDEO_ROUND_LIMIT = 100
const POLL_TIMEOUT_MS = 30_000

export const videoPoller: TaskPoller = {
	platform: TASK_PLATFORM.video,
	failedLine: 'task.failed',
	roundLimit: VIDEO_ROUND_LIMIT,
	async poll(round, rows) {
		const { dependencies, relay } = round
		const known = await channelsById(dependencies, [...new Set(rows.map((row) => row.channelId))])
		for (const row of rows) {
			const found = await videoChannelOf(dependencies, relay, row, known)
			if (!found) {
				await round.apply(row, failureReport('the channel that ran the task no longer exists'), 'channel_gone')
				continue
			}
			const { channel, videos, upstreamId, upstreamModel } = found
			if (!upstreamId) {
				await round.apply(row, failureReport('the upstream gave the task no id'), 'task_failed')
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
				await round.apply(row, { ...report, startTime, failReason: report.failReason && scrubSecrets(report.failReason, channel) }, 'task_failed')
			} catch (error) {
				dependencies.logger.warn('polling a video task failed', { channelId: channel.id, reason: scrubSecrets(String((error as Error).message ?? error), channel) })
			}
		}
	},
}
