import type { AdminMidjourneyEntry, AdminTaskEntry, MidjourneyEntry, TaskEntry } from '@shared/task'
import type { Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import { readVideoProperties } from '@shared/video'
import { midjourneyImagePath, videoContentPath } from '@/auth/signed-links'
import { taskFields } from '@/db/stores/task-fields'

type DrawingRecord = Tables['midjourneys']['$inferSelect']
type TaskRecord = Tables['tasks']['$inferSelect']

/**
 * A drawing task as the drawing log shows it (docs/specification/tasks.md#the-task-lists). With MjForwardUrlEnabled the image is
 * Ferry's signed proxy link (relative when ServerAddress is not set), never the upstream's address.
 */
export function toMidjourneyEntry({ options, secrets }: Pick<Dependencies, 'options' | 'secrets'>, row: DrawingRecord, admin: boolean): MidjourneyEntry | AdminMidjourneyEntry {
	const imageUrl = row.imageUrl && options.get('MjForwardUrlEnabled') ? midjourneyImagePath(secrets, row.mjId, options.get('ServerAddress')) : row.imageUrl
	const entry: MidjourneyEntry = {
		id: row.id,
		user_id: row.userId,
		code: row.code,
		action: row.action,
		mj_id: row.mjId,
		prompt: row.prompt,
		prompt_en: row.promptEn,
		description: row.description,
		state: row.state,
		submit_time: row.submitTime,
		start_time: row.startTime,
		finish_time: row.finishTime,
		image_url: imageUrl,
		status: row.status,
		progress: row.progress,
		fail_reason: row.failReason,
		quota: row.quota,
	}
	return admin ? { ...entry, channel_id: row.channelId } : entry
}

/** A video task's request, and its content through Ferry once it completed. */
function videoOf(secrets: Dependencies['secrets'], row: TaskRecord): TaskEntry['video'] {
	if (row.platform !== TASK_PLATFORM.video) return null
	const { model, seconds, size, prompt } = readVideoProperties(row.properties)
	return { model, seconds, size, prompt, content_url: row.status === TASK_STATUS.success ? videoContentPath(secrets, row.taskId) : '' }
}

/** An async task as the task log shows it (docs/specification/tasks.md#the-task-lists); `private_data` (upstream id, billing) never leaves. */
export function toTaskEntry({ secrets }: Pick<Dependencies, 'secrets'>, row: TaskRecord, admin: boolean): TaskEntry | AdminTaskEntry {
	const entry: TaskEntry = {
		id: row.id,
		user_id: row.userId,
		platform: row.platform,
		quota: row.quota,
		...taskFields(row),
		video: videoOf(secrets, row),
	}
	return admin ? { ...entry, channel_id: row.channelId } : entry
}
