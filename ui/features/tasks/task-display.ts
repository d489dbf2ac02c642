/** How an async task reads (docs/specification/tasks.md#states): status, platform and action labels, the duration tag. */
import { SUNO_ACTION, TASK_PLATFORM, TASK_SLOW_SECONDS, TASK_STATUS, VIDEO_ACTION } from '@shared/task-constants'
import type { AdminTaskEntry, TaskEntry } from '@shared/task'
import type { BadgeVariant } from '@ui/components/ui/badge'

/** An entry as either list answers it: the channel comes only from the admin list. */
export type TaskRow = TaskEntry & Partial<Pick<AdminTaskEntry, 'channel_id'>>

type Tag = { label: string; variant: BadgeVariant }

const statusTags: Record<string, Tag> = {
	'': { label: '提交中', variant: 'grey' },
	[TASK_STATUS.notStart]: { label: '未启动', variant: 'grey' },
	[TASK_STATUS.submitted]: { label: '已提交', variant: 'yellow' },
	[TASK_STATUS.queued]: { label: '排队中', variant: 'orange' },
	[TASK_STATUS.inProgress]: { label: '执行中', variant: 'blue' },
	[TASK_STATUS.success]: { label: '成功', variant: 'green' },
	[TASK_STATUS.failure]: { label: '失败', variant: 'red' },
	[TASK_STATUS.unknown]: { label: '未知', variant: 'grey' },
}

export const taskStatusTag = (status: string): Tag => statusTags[status] ?? { label: '未知', variant: 'grey' }

const platformLabels: Record<string, string> = { [TASK_PLATFORM.suno]: 'Suno', [TASK_PLATFORM.video]: '视频' }
export const platformLabel = (platform: string) => platformLabels[platform] ?? platform

const actionLabels: Record<string, string> = {
	[SUNO_ACTION.music]: '生成音乐',
	[SUNO_ACTION.lyrics]: '生成歌词',
	[VIDEO_ACTION.generate]: '生成视频',
	[VIDEO_ACTION.remix]: '重混视频',
}
export const taskActionLabel = (action: string) => actionLabels[action] ?? action

/** Seconds from submit to finish, or undefined for a task that has not finished. */
export function taskDuration(entry: Pick<TaskEntry, 'submit_time' | 'finish_time'>): number | undefined {
	return entry.finish_time > 0 && entry.submit_time > 0 ? Math.max(0, entry.finish_time - entry.submit_time) : undefined
}

/** Over TASK_SLOW_SECONDS red (docs/specification/tasks.md#the-task-lists), else green. */
export const durationVariant = (seconds: number): BadgeVariant => (seconds > TASK_SLOW_SECONDS ? 'red' : 'green')
