/**
 * What every view of an async task shows of its row — the Suno API's fetch answers it as it is, the
 * task log adds the owner, platform, cost and a video's request — written once.
 */
import type { Tables } from '@/db'

type TaskRecord = Tables['tasks']['$inferSelect']

/** The upstream's result kept as JSON text: parsed, or null when there is none (or it is not JSON). */
function parsedData(text: string): unknown {
	try {
		return text ? JSON.parse(text) as unknown : null
	} catch {
		return null
	}
}

export function taskFields(row: TaskRecord) {
	return {
		task_id: row.taskId,
		action: row.action,
		status: row.status,
		fail_reason: row.failReason,
		submit_time: row.submitTime,
		start_time: row.startTime,
		finish_time: row.finishTime,
		progress: row.progress,
		data: parsedData(row.data),
	}
}
