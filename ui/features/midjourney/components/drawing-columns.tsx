import type { DataColumn } from '@ui/components/data-table/data-table'
import { Badge } from '@ui/components/ui/badge'
import { ImagePreview } from '@ui/features/midjourney/components/image-preview'
import { drawingActionTag, drawingStatusTag, type DrawingRow, submitCodeTag } from '@ui/features/midjourney/midjourney-display'
import { TaskDetailsButton } from '@ui/features/tasks/components/task-details'
import { useTranslation } from '@ui/i18n'
import { useFormatTime } from '@ui/lib/time-zone'

/** The drawing log's columns (docs/specification/tasks.md#the-task-lists); the channel column exists for admins only. */
export function useDrawingColumns(admin: boolean): DataColumn<DrawingRow>[] {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	const tagged = (tag: { label: string; variant: Parameters<typeof Badge>[0]['variant'] }, testId: string) => <Badge variant={tag.variant} data-testid={testId}>{t(tag.label)}</Badge>
	return [
		{ id: 'submit_time', header: '提交时间', cell: ({ row: { original: entry } }) => <span className="tabular-nums">{formatTime(entry.submit_time)}</span> },
		...(admin ? [{ id: 'channel_id', header: '渠道', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <Badge variant="outline" className="tabular-nums">{entry.channel_id}</Badge> } satisfies DataColumn<DrawingRow>] : []),
		{ id: 'action', header: '类型', cell: ({ row: { original: entry } }) => tagged(drawingActionTag(entry.action), 'drawing-action') },
		{ id: 'mj_id', header: '任务 ID', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => <span className="font-mono text-xs">{entry.mj_id || '-'}</span> },
		{ id: 'code', header: '提交结果', meta: { hideOnMobile: true }, cell: ({ row: { original: entry } }) => tagged(submitCodeTag(entry.code), 'drawing-code') },
		{ id: 'status', header: '任务状态', cell: ({ row: { original: entry } }) => tagged(drawingStatusTag(entry.status), 'drawing-status') },
		{ id: 'progress', header: '进度', cell: ({ row: { original: entry } }) => <Badge variant="blue" className="tabular-nums">{entry.progress || '-'}</Badge> },
		{ id: 'image_url', header: '结果图片', cell: ({ row: { original: entry } }) => <ImagePreview url={entry.image_url} prompt={entry.prompt} /> },
		{ id: 'prompt', header: 'Prompt', meta: { hideOnMobile: true, className: 'max-w-48 truncate' }, cell: ({ row: { original: entry } }) => <span title={entry.prompt}>{entry.prompt}</span> },
		{ id: 'fail_reason', header: '失败原因', meta: { hideOnMobile: true, className: 'max-w-48 truncate' }, cell: ({ row: { original: entry } }) => <span title={entry.fail_reason}>{entry.fail_reason}</span> },
		{
			id: 'details',
			header: '',
			meta: { stickyEnd: true },
			cell: ({ row: { original: entry } }) => (
				<TaskDetailsButton title="绘图详情" rows={[
					{ label: '任务 ID', value: <code className="break-all">{entry.mj_id || '-'}</code> },
					{ label: '类型', value: tagged(drawingActionTag(entry.action), 'detail-action') },
					{ label: '提交结果', value: <span>{tagged(submitCodeTag(entry.code), 'detail-code')} <span className="text-muted-foreground tabular-nums">{entry.code}</span></span> },
					{ label: '任务状态', value: tagged(drawingStatusTag(entry.status), 'detail-status') },
					{ label: '进度', value: entry.progress || '-' },
					{ label: '提交时间', value: formatTime(entry.submit_time) },
					{ label: '开始时间', value: formatTime(entry.start_time) },
					{ label: '结束时间', value: formatTime(entry.finish_time) },
					{ label: 'Prompt', value: entry.prompt || '-' },
					{ label: 'PromptEn', value: entry.prompt_en || '-' },
					...(entry.description ? [{ label: '描述', value: entry.description }] : []),
					...(entry.fail_reason ? [{ label: '失败原因', value: entry.fail_reason }] : []),
					...(entry.image_url ? [{ label: '结果图片', value: <a className="break-all text-primary underline" href={entry.image_url} target="_blank" rel="noreferrer">{t('打开图片')}</a> }] : []),
				]} />
			),
		},
	]
}
