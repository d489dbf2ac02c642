import { PlusIcon, RefreshCwIcon } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Link, useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { toast } from '@ui/components/ui/toaster'
import { deleteChannels, deleteDisabledChannels, fixChannels, testAllChannels, updateAllBalances } from '@ui/features/channels/api'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

/** Tagging a selection is a batch-mode tool: its dialog's code loads when it is first opened. */
const BatchTagDialog = lazy(() => import('@ui/features/channels/components/batch-tag-dialog').then((module) => ({ default: module.BatchTagDialog })))
/** So is the model sync dialog. */
const ModelSyncDialog = lazy(() => import('@ui/features/channels/components/model-sync-dialog').then((module) => ({ default: module.ModelSyncDialog })))

/** Failed channels named in the toast; the rest are counted. */
const FAILURES_SHOWN = 3

const selectionMessages = {
	selectToDelete: '请先选择要删除的渠道',
	selectFirst: '请先选择渠道',
} as const

type PageActionsProps = {
	batchMode: boolean
	/** The channel ids behind the selected rows. */
	selectedIds: number[]
	onSelectionDone: () => void
}

/** The buttons above the table (docs/specification/channels.md#the-channel-list). */
export function PageActions({ batchMode, selectedIds, onSelectionDone }: PageActionsProps) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const revalidator = useRevalidator()
	const [confirming, setConfirming] = useState<'disabled' | 'selected' | null>(null)
	const [tagging, setTagging] = useState(false)
	// Once opened, the dialog stays mounted so that it can close with its animation.
	const [taggingOpened, setTaggingOpened] = useState(false)
	if (tagging && !taggingOpened) setTaggingOpened(true)
	const [syncing, setSyncing] = useState(false)
	const [syncOpened, setSyncOpened] = useState(false)
	if (syncing && !syncOpened) setSyncOpened(true)
	/** Test-all answers only a message: it is shown, or the fallback when empty. */
	async function runWithMessage(call: ReturnType<typeof testAllChannels>, fallback: string) {
		const envelope = await run(call)
		if (envelope) toast.success(t(envelope.message || fallback))
	}

	/** Update-all answers what it updated and what failed, with each failure's reason. */
	async function updateBalances() {
		const envelope = await run(updateAllBalances(browserApi))
		if (!envelope) return
		const { updated, failed, pending } = envelope.data
		toast.success(t('已更新 {count} 个渠道的余额', { count: updated }) + (pending > 0 ? t('，{count} 个仍在后台更新', { count: pending }) : ''))
		if (failed.length > 0) {
			const shown = failed.slice(0, FAILURES_SHOWN).map((failure) => `${failure.name}（${failure.reason}）`).join('；')
			toast.error(t('{count} 个渠道更新失败：{list}', { count: failed.length, list: failed.length > FAILURES_SHOWN ? `${shown}…` : shown }))
		}
		await revalidator.revalidate()
	}

	function askDeleteSelected() {
		if (selectedIds.length === 0) return toast.error(t(selectionMessages.selectToDelete))
		setConfirming('selected')
	}

	function askBatchTag() {
		if (selectedIds.length === 0) return toast.error(t(selectionMessages.selectFirst))
		setTagging(true)
	}

	async function deleteSelected() {
		const deleted = await run(deleteChannels(browserApi, selectedIds), (count) => t('已删除 {count} 个渠道', { count: Number(count) }))
		if (deleted) onSelectionDone()
	}

	return (
		<div className="flex flex-wrap items-center gap-2">
			<Button asChild>
				<Link to="/channel/add">
					<PlusIcon />
					{t('添加渠道')}
				</Link>
			</Button>
			<Button variant="outline" onClick={() => runWithMessage(testAllChannels(browserApi), '已开始测试所有渠道')}>{t('测试所有渠道')}</Button>
			<Button variant="outline" onClick={updateBalances}>{t('更新所有已启用渠道余额')}</Button>
			<Button variant="outline" onClick={() => setSyncing(true)}>{t('同步上游模型')}</Button>
			<Button variant="outline" onClick={() => setConfirming('disabled')}>{t('删除所有已禁用渠道')}</Button>
			<Button variant="outline" onClick={() => run(fixChannels(browserApi), (count) => (Number(count) > 0 ? t('已修复 {count} 个渠道', { count: Number(count) }) : t('数据库一致，无需修复')))}>{t('修复数据库一致性')}</Button>
			<Button variant="outline" disabled={revalidator.state === 'loading'} onClick={() => revalidator.revalidate()}>
				<RefreshCwIcon />
				{t('刷新')}
			</Button>
			{batchMode && (
				<>
					<Button variant="destructive" onClick={askDeleteSelected}>{t('删除所选渠道')}</Button>
					<Button variant="outline" onClick={askBatchTag}>{t('批量设置标签')}</Button>
				</>
			)}
			<ConfirmDialog
				open={confirming === 'disabled'}
				onOpenChange={(open) => setConfirming(open ? 'disabled' : null)}
				title={t('删除所有已禁用渠道')}
				description={t('确定删除所有已禁用（含自动禁用）的渠道吗？此操作不可撤销。')}
				confirmText={t('删除')}
				destructive
				onConfirm={() => run(deleteDisabledChannels(browserApi), (count) => t('已删除 {count} 个已禁用渠道', { count: Number(count) }))}
			/>
			<ConfirmDialog
				open={confirming === 'selected'}
				onOpenChange={(open) => setConfirming(open ? 'selected' : null)}
				title={t('删除所选渠道')}
				description={t('确定删除所选的 {count} 个渠道吗？此操作不可撤销。', { count: selectedIds.length })}
				confirmText={t('删除')}
				destructive
				onConfirm={deleteSelected}
			/>
			{syncOpened && (
				<Suspense fallback={null}>
					<ModelSyncDialog channelId={null} open={syncing} onOpenChange={setSyncing} />
				</Suspense>
			)}
			{taggingOpened && (
				<Suspense fallback={null}>
					<BatchTagDialog ids={selectedIds} open={tagging} onOpenChange={setTagging} onDone={onSelectionDone} />
				</Suspense>
			)}
		</div>
	)
}
