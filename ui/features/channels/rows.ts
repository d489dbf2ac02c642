import type { ChannelListItem, ChannelTagRow, ChannelView } from '@shared/channel'
import type { RowSelectionState } from '@ui/components/data-table/data-table'

export const isTagRow = (row: ChannelListItem): row is ChannelTagRow => 'kind' in row && row.kind === 'tag'

/** Row ids: a channel by its id, a tag row by `tag:<name>`. */
export const rowKey = (row: ChannelListItem): string | number => isTagRow(row) ? `tag:${row.tag}` : row.id

/** The channel ids behind selected keys: a selected tag row stands for all its channels. */
export function selectedChannelIds(rows: ChannelListItem[], selected: RowSelectionState): number[] {
	const ids = new Set<number>()
	for (const row of rows) {
		if (!selected[rowKey(row)]) continue
		const channels: ChannelView[] = isTagRow(row) ? row.channels : [row]
		for (const channel of channels) ids.add(channel.id)
	}
	return [...ids]
}
