/**
 * Video tasks in the `tasks` table (platform `video`): Ferry's own id (`video_…`; the upstream's
 * stays in `private_data` and never leaves), the request in `properties`, and OpenAI's video object
 * built from the row for every read. Reads are the caller's own: another user's id is not found.
 */
import { and, eq } from 'drizzle-orm'
import { TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import { readVideoProperties, type VideoProperties } from '@shared/video'
import type { Dependencies } from '@/dependencies'
import { equalsText } from '@/db/stored-text'
import { randomString } from '@/lib/crypto'
import { RelayError } from '../../errors'
import type { UpstreamTaskState, VideoState } from '../../providers/types'
import type { TaskRow } from '../task-rows'

const ID_PREFIX = 'video_'
const ID_LENGTH = 40
const PERCENT = '%'

export const newVideoId = () => `${ID_PREFIX}${randomString(ID_LENGTH)}`

export type { VideoProperties }

export const readVideoPropertiesOf = (row: Pick<TaskRow, 'properties'>): VideoProperties => readVideoProperties(row.properties)

const STATUS_OF: Record<VideoState['status'], string> = {
	queued: TASK_STATUS.queued,
	in_progress: TASK_STATUS.inProgress,
	completed: TASK_STATUS.success,
	failed: TASK_STATUS.failure,
}

/** OpenAI's status of a row's. */
function openAIStatus(status: string): VideoState['status'] {
	if (status === TASK_STATUS.success) return 'completed'
	if (status === TASK_STATUS.failure) return 'failed'
	if (status === TASK_STATUS.inProgress) return 'in_progress'
	return 'queued'
}

/** A completed report without a video is a failure: nothing was delivered, nothing is charged. */
export const NO_VIDEO_REASON = 'the upstream reported the video finished but gave no video'

/** An upstream's report in the terms of a task row (task-rows.ts applies it). */
export function videoReport(id: string, state: VideoState): UpstreamTaskState {
	const empty = state.status === 'completed' && !state.hasVideo
	return {
		id,
		status: empty ? TASK_STATUS.failure : STATUS_OF[state.status],
		progress: `${state.progress}${PERCENT}`,
		failReason: empty ? NO_VIDEO_REASON : state.failReason,
		submitTime: 0, startTime: 0, finishTime: 0,
	}
}

const progressOf = (row: TaskRow) => {
	const value = Number.parseInt(row.progress, 10)
	return Number.isFinite(value) ? value : 0
}

/** The row as OpenAI's video object. */
export function videoView(row: TaskRow) {
	const properties = readVideoPropertiesOf(row)
	const status = openAIStatus(row.status)
	return {
		id: row.taskId,
		object: 'video',
		model: properties.model,
		status,
		progress: status === 'completed' ? 100 : progressOf(row),
		created_at: row.submitTime,
		completed_at: status === 'completed' ? row.finishTime || null : null,
		expires_at: null,
		prompt: properties.prompt,
		seconds: String(properties.seconds),
		size: properties.size,
		remixed_from_video_id: properties.remixed_from_video_id,
		error: status === 'failed' ? { code: 'video_generation_failed', message: row.failReason } : null,
	}
}

export const videoNotFound = (id: string) => new RelayError(404, `Video with id '${id}' not found.`, 'invalid_request_error', 'not_found')

/** The caller's own video, not deleted; a 404 in OpenAI's shape otherwise (another user's included). */
export async function ownVideo({ store }: Pick<Dependencies, 'store'>, userId: number, id: string): Promise<TaskRow> {
	const { tasks } = store.tables
	const [row] = await store.db.select().from(tasks)
		.where(and(eq(tasks.userId, userId), eq(tasks.platform, TASK_PLATFORM.video), equalsText(tasks.taskId, id))).limit(1)
	if (!row || readVideoPropertiesOf(row).deleted) throw videoNotFound(id)
	return row
}

/** Who a video belongs to (the signed player link names only the video); 404 when there is no such video. */
export async function videoOwner({ store }: Pick<Dependencies, 'store'>, id: string): Promise<number> {
	const { tasks } = store.tables
	const [row] = await store.db.select({ userId: tasks.userId }).from(tasks).where(and(eq(tasks.platform, TASK_PLATFORM.video), equalsText(tasks.taskId, id))).limit(1)
	if (!row) throw videoNotFound(id)
	return row.userId
}
