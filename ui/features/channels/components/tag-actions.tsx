import { lazy, Suspense, useState } from 'react'
import type { ChannelTagRow } from '@shared/channel'
import { PowerIcon, PowerOffIcon } from 'lucide-react'
import { RowActions } from '@ui/components/data-table/row-actions'
import { disableTag, enableTag } from '@ui/features/channels/api'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

/**
 * The tag editor (with the channel editor's JSON checks) loads on its first opening: the list's first
 * load stays within the console's budget (bench:console).
 */
const TagEditDialog = lazy(() => import('@ui/features/channels/components/tag-edit-dialog').then((module) => ({ default: module.TagEditDialog })))

/** A tag row: edit the tag; enable or disable all its channels from the menu. */
export function TagActions({ row }: { row: ChannelTagRow }) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [editing, setEditing] = useState(false)
	// Mounted from the first opening on, so that closing keeps its animation.
	const [opened, setOpened] = useState(false)
	const changed = (count: number) => t('已更新 {count} 个渠道', { count: Number(count) })
	return (
		<RowActions
			inline={1}
			actions={[
				{ label: '编辑标签', onSelect: () => { setOpened(true); setEditing(true) } },
				{ label: '启用全部', icon: <PowerIcon />, onSelect: () => run(enableTag(browserApi, row.tag), changed) },
				{ label: '禁用全部', icon: <PowerOffIcon />, onSelect: () => run(disableTag(browserApi, row.tag), changed) },
			]}
		>
			{opened && (
				<Suspense fallback={null}>
					<TagEditDialog row={row} open={editing} onOpenChange={setEditing} />
				</Suspense>
			)}
		</RowActions>
	)
}
