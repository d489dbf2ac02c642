import type { DataColumn } from '@ui/components/data-table/data-table'
import { Badge } from '@ui/components/ui/badge'
import { TaskDetailsButton } from '@ui/features/tasks/components/task-details'
import { durationVariant, platformLabel, taskActionLabel, taskDuration, type TaskRow, taskStatusTag } from '@ui/features/tasks/task-display'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'

/** The task log's columns (docs/specification/tasks.md#the-task-lists); the channel column exists for admins only. */
export function useTaskColumns(admin: boolean): DataColumn<TaskRow>[] {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	const site = useStatus()
	const status = (entry: TaskRow) => {
		const tag = taskStatusTag(entry.status)
		return <Badge variant={tag.variant} data-testid="task-status">{t(tag.label)}</Badge>
	}
	return [
		{ id: 'submit_time', header: '提交时间', cell: ({ row: { original: entry } }) => <span className="tabular-nums">{formatTime(entry.submit_time)}</span> },
		{ id: 'finish_time', header: '结束时间', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <span className="tabular-nums">{formatTime(entry.finish_time)}</span> },
		{
			id: 'duration',
			header: '花费时间',
			cell: ({ row: { original: entry } }) => {
				const seconds = taskDuration(entry)
				return seconds === undefined ? '-' : <Badge variant={durationVariant(seconds)} data-testid="task-duration">{t('{seconds} 秒', { seconds })}</Badge>
			},
		},
		...(admin ? [{ id: 'channel_id', header: '渠道', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <Badge variant="outline" className="tabular-nums">{entry.channel_id}</Badge> } satisfies DataColumn<TaskRow>] : []),
		{ id: 'platform', header: '平台', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <Badge variant="purple">{platformLabel(entry.platform)}</Badge> },
		{ id: 'action', header: '类型', cell: ({ row: { original: entry } }) => <Badge variant="blue">{t(taskActionLabel(entry.action))}</Badge> },
		{ id: 'task_id', header: '任务 ID', meta: { hideOnMobile: true, className: 'max-w-48 truncate' }, cell: ({ row: { original: entry } }) => <span className="font-mono text-xs" title={entry.task_id}>{entry.task_id}</span> },
		{ id: 'status', header: '任务状态', cell: ({ row: { original: entry } }) => status(entry) },
		{ id: 'progress', header: '进度', meta: { hideOnMobile: true, className: 'tabular-nums' }, cell: ({ row: { original: entry } }) => entry.progress || '-' },
		{
			id: 'video_seconds',
			header: '视频时长',
			meta: { hideOnMobile: true },
			cell: ({ row: { original: entry } }) => entry.video ? <span className="tabular-nums" data-testid="video-seconds">{t('{seconds} 秒', { seconds: entry.video.seconds })}</span> : '-',
		},
		{ id: 'quota', header: '消耗额度', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <span className="tabular-nums" data-testid="task-quota">{renderQuota(entry.quota, site)}</span> },
		{ id: 'fail_reason', header: '失败原因', meta: { hideOnMobile: true, className: 'max-w-48 truncate' }, cell: ({ row: { original: entry } }) => <span title={entry.fail_reason}>{entry.fail_reason}</span> },
		{
			id: 'details',
			header: '',
			meta: { stickyEnd: true },
			cell: ({ row: { original: entry } }) => (
				<TaskDetailsButton title="任务详情" rows={[
					{ label: '任务 ID', value: <code className="break-all">{entry.task_id}</code> },
					{ label: '平台', value: platformLabel(entry.platform) },
					{ label: '类型', value: t(taskActionLabel(entry.action)) },
					{ label: '任务状态', value: status(entry) },
					{ label: '进度', value: entry.progress || '-' },
					{ label: '提交时间', value: formatTime(entry.submit_time) },
					{ label: '开始时间', value: formatTime(entry.start_time) },
					{ label: '结束时间', value: formatTime(entry.finish_time) },
					...(entry.fail_reason ? [{ label: '失败原因', value: entry.fail_reason }] : []),
					...(entry.video ? [
						{ label: '模型', value: entry.video.model },
						{ label: '视频时长', value: t('{seconds} 秒', { seconds: entry.video.seconds }) },
						{ label: '分辨率', value: entry.video.size },
						{ label: '提示词', value: entry.video.prompt },
						{ label: '消耗额度', value: renderQuota(entry.quota, site) },
						...(entry.video.content_url ? [{
							label: '视频预览',
							value: <video controls preload="metadata" className="max-h-72 w-full rounded bg-black" src={entry.video.content_url} data-testid="video-preview" />,
						}] : []),
					] : []),
					...(entry.data !== null && entry.data !== undefined ? [{ label: '任务结果', value: <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-muted p-2 text-xs">{JSON.stringify(entry.data, null, 2)}</pre> }] : []),
				]} />
			),
		},
	]
}
