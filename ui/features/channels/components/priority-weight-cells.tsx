import { PRIORITY_MIN, WEIGHT_MIN } from '@shared/channel-constants'
import type { ChannelListItem } from '@shared/channel'
import { toast } from '@ui/components/ui/toaster'
import { editTag, updateChannel } from '@ui/features/channels/api'
import { InlineNumber } from '@ui/features/channels/components/inline-number'
import { parsePriority, parseWeight } from '@ui/features/channels/numbers'
import { isTagRow } from '@ui/features/channels/rows'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

type Field = 'priority' | 'weight'

/** Inline priority or weight: a channel saves `{id, field}`, a tag row `{tag, field}` for all its channels. */
function NumberCell({ row, field }: { row: ChannelListItem; field: Field }) {
	const { t } = useTranslation()
	const run = useChannelAction()

	async function save(text: string) {
		const parsed = field === 'priority' ? parsePriority(text) : parseWeight(text, { floor: true })
		if (parsed.error !== undefined) {
			toast.error(t(parsed.error, parsed.values))
			return undefined
		}
		const value = parsed.value
		const call = isTagRow(row) ? editTag(browserApi, { tag: row.tag, [field]: value }) : updateChannel(browserApi, { id: row.id, [field]: value })
		const saved = await run<unknown>(call, '保存成功')
		return saved ? value : undefined
	}

	const name = isTagRow(row) ? row.tag : row.name
	return (
		<InlineNumber
			value={row[field]}
			label={t(field === 'priority' ? '{name} 的优先级' : '{name} 的权重', { name })}
			min={field === 'priority' ? PRIORITY_MIN : WEIGHT_MIN}
			onCommit={save}
		/>
	)
}

export const PriorityCell = ({ row }: { row: ChannelListItem }) => <NumberCell row={row} field="priority" />
export const WeightCell = ({ row }: { row: ChannelListItem }) => <NumberCell row={row} field="weight" />
