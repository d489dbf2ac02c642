import { PlusIcon } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { ChannelListItem } from '@shared/channel'
import { DataTable, type RowSelectionState } from '@ui/components/data-table/data-table'
import { EmptyState } from '@ui/components/data-table/empty-state'
import { useTableUrlState } from '@ui/components/data-table/url-state'
import { Button } from '@ui/components/ui/button'
import type { ChannelListData } from '@ui/features/channels/channel-route'
import { ChannelPhoneSummary, channelColumns } from '@ui/features/channels/components/channel-columns'
import { ChannelFilters } from '@ui/features/channels/components/channel-filters'
import { PageActions } from '@ui/features/channels/components/page-actions'
import { filterParameters, filtersFromSearch, flag } from '@ui/features/channels/filters'
import { isTagRow, rowKey, selectedChannelIds } from '@ui/features/channels/rows'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

export function ChannelListPage() {
	const { t } = useTranslation()
	const status = useStatus()
	const { channels, error, groups, channelTypes } = useLoaderData() as ChannelListData
	const table = useTableUrlState('channels')
	const filters = filtersFromSearch(table.searchParameters)
	const [batchMode, setBatchMode] = useState(false)
	const [selected, setSelected] = useState<RowSelectionState>({})
	const { searchParameters, update } = table

	// The id-sort choice is remembered locally and restored when the URL does not name it.
	useEffect(() => {
		if (searchParameters.has(filterParameters.idSort)) return
		if (readStorage(storageKeys.channelIdSort) === 'true') update({ [filterParameters.idSort]: flag(true) }, { replace: true })
	}, [searchParameters, update])

	const columns = useMemo(() => channelColumns(t, status, channelTypes), [t, status, channelTypes])
	const selectedIds = selectedChannelIds(channels.items, selected)

	function setIdSort(idSort: boolean) {
		writeStorage(storageKeys.channelIdSort, String(idSort))
		table.setFilters({ [filterParameters.idSort]: flag(idSort) })
	}

	function setBatch(on: boolean) {
		setBatchMode(on)
		if (!on) setSelected({})
	}

	return (
		<div className="flex flex-col gap-4">
			<h1 className="text-xl font-semibold">{t('渠道')}</h1>
			<ChannelFilters
				filters={filters}
				groups={groups}
				batchMode={batchMode}
				onSearch={(search) => table.setFilters(search)}
				onIdSortChange={setIdSort}
				onBatchModeChange={setBatch}
				onTagModeChange={(tagMode) => {
					setSelected({})
					table.setFilters({ [filterParameters.tagMode]: flag(tagMode) })
				}}
			/>
			<PageActions batchMode={batchMode} selectedIds={selectedIds} onSelectionDone={() => setSelected({})} />
			{error && <p role="alert" className="text-sm text-destructive">{t(error)}</p>}
			<DataTable<ChannelListItem>
				columns={columns}
				rows={channels.items}
				rowKey={rowKey}
				rowSelection={batchMode ? selected : undefined}
				onRowSelectionChange={setSelected}
				rowClassName={(row) => isTagRow(row) ? 'bg-row-hover' : undefined}
				empty={<EmptyState filtered={Boolean(filters.keyword || filters.model || filters.group)} nothing='还没有渠道：添加一个上游的密钥和地址，令牌才能调用模型' noMatch='没有符合搜索条件的渠道' action={<Button asChild><Link to='/channel/add'><PlusIcon />{t('添加渠道')}</Link></Button>} />}
				renderExpanded={filters.tagMode ? (row) => <ExpandedRow row={row} columns={columns} /> : undefined}
				canExpand={isTagRow}
				phoneSummary={(row) => <ChannelPhoneSummary row={row} types={channelTypes} />}
				pagination={{ page: table.page, pageSize: table.pageSize, total: channels.total, onPageChange: table.setPage, onPageSizeChange: table.setPageSize }}
			/>
		</div>
	)
}

/** Tag mode: a tag row opens onto its channels (a channel without a tag has nothing to open). */
function ExpandedRow({ row, columns }: { row: ChannelListItem; columns: ReturnType<typeof channelColumns> }) {
	if (!isTagRow(row)) return null
	return <DataTable<ChannelListItem> columns={columns} rows={row.channels} rowKey={rowKey} />
}
