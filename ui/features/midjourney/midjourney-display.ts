/** How a drawing task reads (docs/specification/tasks.md#states): action, status and submit-code tags. */
import { MJ_ACTION, MJ_SUBMIT_CODE, TASK_STATUS } from '@shared/task-constants'
import type { AdminMidjourneyEntry, MidjourneyEntry } from '@shared/task'
import type { BadgeVariant } from '@ui/components/ui/badge'

/** An entry as either list answers it: the channel comes only from the admin list. */
export type DrawingRow = MidjourneyEntry & Partial<Pick<AdminMidjourneyEntry, 'channel_id'>>

type Tag = { label: string; variant: BadgeVariant }

const actionTags: Record<string, Tag> = {
	[MJ_ACTION.imagine]: { label: '绘图', variant: 'blue' },
	[MJ_ACTION.upscale]: { label: '放大', variant: 'orange' },
	[MJ_ACTION.variation]: { label: '变换', variant: 'purple' },
	[MJ_ACTION.highVariation]: { label: '强变换', variant: 'purple' },
	[MJ_ACTION.lowVariation]: { label: '弱变换', variant: 'purple' },
	[MJ_ACTION.pan]: { label: '平移', variant: 'lime' },
	[MJ_ACTION.describe]: { label: '图生文', variant: 'yellow' },
	[MJ_ACTION.blend]: { label: '图混合', variant: 'lime' },
	[MJ_ACTION.upload]: { label: '上传文件', variant: 'grey' },
	[MJ_ACTION.shorten]: { label: '缩词', variant: 'yellow' },
	[MJ_ACTION.reroll]: { label: '重绘', variant: 'blue' },
	[MJ_ACTION.inpaint]: { label: '局部重绘', variant: 'orange' },
	[MJ_ACTION.zoom]: { label: '变焦', variant: 'lime' },
	[MJ_ACTION.customZoom]: { label: '自定义变焦', variant: 'lime' },
	[MJ_ACTION.modal]: { label: '窗口处理', variant: 'grey' },
	[MJ_ACTION.swapFace]: { label: '换脸', variant: 'red' },
}
export const drawingActionTag = (action: string): Tag => actionTags[action] ?? { label: '未知', variant: 'grey' }

const statusTags: Record<string, Tag> = {
	'': { label: '提交中', variant: 'grey' },
	[TASK_STATUS.success]: { label: '成功', variant: 'green' },
	[TASK_STATUS.notStart]: { label: '未启动', variant: 'grey' },
	[TASK_STATUS.submitted]: { label: '队列中', variant: 'yellow' },
	[TASK_STATUS.inProgress]: { label: '执行中', variant: 'blue' },
	[TASK_STATUS.failure]: { label: '失败', variant: 'red' },
	[TASK_STATUS.modal]: { label: '窗口等待', variant: 'orange' },
}
export const drawingStatusTag = (status: string): Tag => statusTags[status] ?? { label: '未知', variant: 'grey' }

const codeTags: Record<number, Tag> = {
	[MJ_SUBMIT_CODE.submitted]: { label: '已提交', variant: 'green' },
	[MJ_SUBMIT_CODE.exists]: { label: '等待中', variant: 'lime' },
	[MJ_SUBMIT_CODE.queued]: { label: '重复提交', variant: 'orange' },
	[MJ_SUBMIT_CODE.notSubmitted]: { label: '未提交', variant: 'yellow' },
}
/** Any other code is a refusal the upstream answered (23 queue full, 24 banned prompt…). */
export const submitCodeTag = (code: number): Tag => codeTags[code] ?? { label: '提交失败', variant: 'red' }
