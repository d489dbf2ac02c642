import type { AdminMidjourneyEntry, AdminTaskEntry, MidjourneyEntry, TaskEntry } from '@shared/task'
import type { Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import { readVideoProperties } from '@shared/video'
import { shownDrawingImage, videoContentPath } from '@/auth/signed-links'
import { drawingOf } from '@/db/stores/drawings'
import { taskFields } from '@/db/stores/task-fields'

type TaskRecord = Tables['tasks']['$inferSelect']

/** What a task log entry is made with. */
export type ViewDependencies = Pick<Dependencies, 'options' | 'secrets'>

/** The channel, shown to admins only. */
const withChannel = <Entry extends object>(entry: Entry, row: TaskRecord, admin: boolean) => (admin ? { ...entry, channel_id: row.channelId } : entry)

/**
 * A drawing task as the drawing log shows it (docs/specification/tasks.md#the-task-lists). With MjForwardUrlEnabled the image is
 * Ferry's signed proxy link (relative when ServerAddress is not set), never the upstream's address.
 */
export function toMidjourneyEntry({ options, secrets }: ViewDependencies, row: TaskRecord, admin: boolean): MidjourneyEntry | AdminMidjourneyEntry {
	const drawing = drawingOf(row)
	const entry: MidjourneyEntry = {
		id: drawing.id,
		user_id: drawing.userId,
		code: drawing.code,
		action: drawing.action,
		mj_id: drawing.mjId,
		prompt: drawing.prompt,
		prompt_en: drawing.promptEn,
		description: drawing.description,
		state: drawing.state,
		submit_time: drawing.submitTime,
		start_time: drawing.startTime,
		finish_time: drawing.finishTime,
		image_url: shownDrawingImage(secrets, options.get('MjForwardUrlEnabled'), drawing, options.get('ServerAddress')),
		status: drawing.status,
		progress: drawing.progress,
		fail_reason: drawing.failReason,
		quota: drawing.quota,
	}
	return withChannel(entry, row, admin)
}

/** A video task's request, and its content through Ferry once it completed. */
function videoOf(secrets: Dependencies['secrets'], row: TaskRecord): TaskEntry['video'] {
	if (row.platform !== TASK_PLATFORM.video) return null
	const { model, seconds, size, prompt } = readVideoProperties(row.properties)
	return { model, seconds, size, prompt, content_url: row.status === TASK_STATUS.success ? videoContentPath(secrets, row.taskId) : '' }
}

/** An async task as the task log shows it (docs/specification/tasks.md#the-task-lists); `private_data` (upstream id, billing) never leaves. */
export function toTaskEntry({ secrets }: ViewDependencies, row: TaskRecord, admin: boolean): TaskEntry | AdminTaskEntry {
	const entry: TaskEntry = {
		id: row.id,
		user_id: row.userId,
		platform: row.platform,
		quota: row.quota,
		...taskFields(row),
		video: videoOf(secrets, row),
	}
	return withChannel(entry, row, admin)
}
