/**
 * The answer of a video submit (`POST /v1/videos`, a remix): a task, not a finished answer. The
 * upstream's answer names its task; the call's hold becomes the task's (CallScope.handOver) in the
 * same unit of work that records it under Ferry's own id, and the poller (relay/tasks/videos/)
 * settles it when the video is completed or returns it in full when it fails, times out or comes
 * without a video. The client gets OpenAI's video object with Ferry's id, never the upstream's.
 */
import { eq } from 'drizzle-orm'
import { TASK_PLATFORM, TASK_STATUS, VIDEO_ACTION } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import { costOfCall } from '@/billing/cost'
import { nowSeconds } from '@/lib/clock'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { wordedRelayError } from '../errors'
import { hasVideoReference } from '../formats/videos/reference'
import { videoSeconds, videoSize } from '../formats/videos/requests'
import { adaptorFor } from '../providers/registry'
import type { RelayServices } from '../services'
import { recordTask, taskBook, type TaskBilling } from '../tasks/task-rows'
import { newVideoId, type VideoProperties, videoReport, videoView } from '../tasks/videos/video-rows'
import type { HeldCall } from './call'
import type { MediaResult } from './media-answer'
import type { UpstreamAnswer } from './send'

const ZERO_USAGE = { promptTokens: 0, completionTokens: 0 }

const malformed = () => wordedRelayError(502, RELAY_MESSAGES.malformedAnswer, 'upstream_error', 'upstream_malformed')

/** Throws a RelayError; the composition (index.ts) voids the hold on any failure before the hand-over. */
export async function videoAnswer(dependencies: Dependencies, relay: RelayServices, call: HeldCall, upstream: UpstreamAnswer): Promise<MediaResult> {
	const { options, store } = dependencies
	const { channel, keyIndex } = upstream.target
	const videos = adaptorFor(channel.type)?.videos
	let submitted
	try {
		submitted = videos!.readSubmit(await upstream.opened.response.text(), { withImage: hasVideoReference(call.request) })
	} catch {
		throw malformed()
	}
	const report = videoReport(submitted.id, submitted.state)
	const { body } = call.request
	const { pricing } = call
	const quotaPerUnit = options.get('QuotaPerUnit')
	const properties: VideoProperties = {
		prompt: typeof body.prompt === 'string' ? body.prompt : '',
		model: call.model,
		seconds: videoSeconds(body),
		size: videoSize(body),
		remixed_from_video_id: call.request.remixOf?.videoId ?? null,
	}
	const billing: TaskBilling = {
		username: call.caller.user.username, token_id: call.caller.token.id, token_name: call.caller.token.name, group: call.group, model: call.model,
		model_price: pricing.kind === 'per_call' ? pricing.modelPrice : 0, group_ratio: pricing.groupRatio, channel_name: channel.name, ip: call.clientAddress,
		upstream_id: submitted.id, key_index: keyIndex, upstream_model: upstream.opened.upstreamModel,
		...(call.scope.funding ? { plan_name: call.scope.funding.name } : {}),
		...(pricing.kind === 'per_call' && pricing.callRatio !== undefined ? { call_ratio: pricing.callRatio } : {}),
	}
	const failedAtOnce = report.status === TASK_STATUS.failure
	const now = nowSeconds()
	const book = taskBook(relay.ledger.dialect, options, now)
	let rowId = 0
	await call.scope.handOver(async () => {
		rowId = await relay.ledger.transaction((tx, tables) => recordTask(tx, tables, book, {
			taskId: newVideoId(),
			platform: TASK_PLATFORM.video,
			userId: call.caller.user.id,
			group: call.group,
			channelId: channel.id,
			quota: failedAtOnce ? 0 : call.holdAmount,
			cost: failedAtOnce ? 0 : costOfCall(channel.cost, call.model, pricing, ZERO_USAGE, quotaPerUnit) ?? null,
			action: call.request.remixOf ? VIDEO_ACTION.remix : VIDEO_ACTION.generate,
			status: report.status,
			progress: report.progress,
			failReason: report.failReason,
			submitTime: now,
			finishTime: failedAtOnce || report.status === TASK_STATUS.success ? now : 0,
			properties: JSON.stringify(properties),
			privateData: JSON.stringify(billing),
			requestId: call.requestId,
		}))
	})
	const { tasks } = store.tables
	const [row] = await store.db.select().from(tasks).where(eq(tasks.id, rowId))
	relay.recordResponseTime(channel.id, Math.round(performance.now() - call.startedAt))
	return { kind: 'media', contentType: 'application/json', body: JSON.stringify(videoView(row!)) }
}
