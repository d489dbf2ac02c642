import { useState } from 'react'
import type { ChannelTagRow } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { disableTag, enableTag } from '@ui/features/channels/api'
import { TagEditDialog } from '@ui/features/channels/components/tag-edit-dialog'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

/** A tag row: enable all, disable all, edit the tag. */
export function TagActions({ row }: { row: ChannelTagRow }) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [editing, setEditing] = useState(false)
	const changed = (count: number) => t('已更新 {count} 个渠道', { count: Number(count) })
	return (
		<div className="flex items-center gap-1">
			<Button variant="outline" size="sm" onClick={() => run(enableTag(browserApi, row.tag), changed)}>
				{t('启用全部')}
			</Button>
			<Button variant="outline" size="sm" onClick={() => run(disableTag(browserApi, row.tag), changed)}>
				{t('禁用全部')}
			</Button>
			<Button variant="outline" size="sm" onClick={() => setEditing(true)}>
				{t('编辑标签')}
			</Button>
			<TagEditDialog row={row} open={editing} onOpenChange={setEditing} />
		</div>
	)
}
