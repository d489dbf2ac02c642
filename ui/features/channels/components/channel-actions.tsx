import { CopyIcon, PowerIcon, PowerOffIcon, RadarIcon, RefreshCcwDotIcon, Trash2Icon } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import type { ChannelView, UpstreamGroup } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { RowActions } from '@ui/components/data-table/row-actions'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { toast } from '@ui/components/ui/toaster'
import { copyChannel, deleteChannel, detectUpstream, updateChannel } from '@ui/features/channels/api'
import { TestButton } from '@ui/features/channels/components/test-button'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { describeError } from '@ui/lib/api'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

/** The detected upstream groups' dialog: its code loads with the first detection. */
/** The model sync dialog: its code loads when it is first opened. */
const ModelSyncDialog = lazy(() => import('@ui/features/channels/components/model-sync-dialog').then((module) => ({ default: module.ModelSyncDialog })))
const UpstreamDialog = lazy(() => import('@ui/features/channels/components/upstream-dialog').then((module) => ({ default: module.UpstreamDialog })))

/** Test and edit on the row; enable/disable, detect upstream, sync upstream models, copy and delete in its menu. */
export function ChannelActions({ channel }: { channel: ChannelView }) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [confirmingDelete, setConfirmingDelete] = useState(false)
	const [upstreamGroups, setUpstreamGroups] = useState<UpstreamGroup[] | null>(null)
	const [syncing, setSyncing] = useState(false)
	// Once opened, the dialog stays mounted so that it can close with its animation.
	const [syncOpened, setSyncOpened] = useState(false)
	if (syncing && !syncOpened) setSyncOpened(true)
	const enabled = channel.status === CHANNEL_STATUS.enabled

	async function detect() {
		const envelope = await callApi(t, detectUpstream(browserApi, channel.id))
		if (!envelope) return
		// The answer's schema (and zod) load with the first detection, not with the page.
		const { upstreamDetectionSchema } = await import('@shared/channel')
		const detection = upstreamDetectionSchema.safeParse(envelope.data)
		setUpstreamGroups(detection.success ? detection.data.groups : [])
	}

	async function copy() {
		// The catalogue message (channel copy failed), with the reason.
		const failed = (reason: string) => toast.error(t('渠道复制失败：{reason}', { reason }))
		try {
			const envelope = await copyChannel(browserApi, channel)
			if (!envelope.success) return failed(t(envelope.message))
			await run(Promise.resolve(envelope), '渠道复制成功')
		} catch (error) {
			failed(describeError(error, t))
		}
	}

	return (
		<RowActions
			leading={<TestButton channel={channel} />}
			actions={[
				{ label: '编辑', to: `/channel/edit/${channel.id}` },
				{
					label: enabled ? '禁用' : '启用',
					icon: enabled ? <PowerOffIcon /> : <PowerIcon />,
					onSelect: () => run(updateChannel(browserApi, { id: channel.id, status: enabled ? CHANNEL_STATUS.manuallyDisabled : CHANNEL_STATUS.enabled }), enabled ? '已禁用' : '已启用'),
				},
				{ label: '检测上游', icon: <RadarIcon />, onSelect: detect },
				{ label: '同步上游模型', icon: <RefreshCcwDotIcon />, onSelect: () => setSyncing(true) },
				{ label: '复制', icon: <CopyIcon />, onSelect: copy },
				{ label: '删除', icon: <Trash2Icon />, destructive: true, onSelect: () => setConfirmingDelete(true) },
			]}
		>
			<ConfirmDialog
				open={confirmingDelete}
				onOpenChange={setConfirmingDelete}
				title={t('删除渠道')}
				description={t('确定删除渠道 {name} 吗？此操作不可撤销。', { name: channel.name })}
				confirmText={t('删除')}
				destructive
				onConfirm={() => run(deleteChannel(browserApi, channel.id), '删除成功')}
			/>
			{syncOpened && (
				<Suspense fallback={null}>
					<ModelSyncDialog channelId={channel.id} open={syncing} onOpenChange={setSyncing} />
				</Suspense>
			)}
			{upstreamGroups && (
				<Suspense fallback={null}>
					<UpstreamDialog channelName={channel.name} groups={upstreamGroups} onClose={() => setUpstreamGroups(null)} />
				</Suspense>
			)}
		</RowActions>
	)
}
