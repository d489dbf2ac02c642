import type { LoaderFunctionArgs } from 'react-router'
import type { Page } from '@shared/api'
import type { ChannelListItem, ChannelTypeInfo } from '@shared/channel'
import { readPaging } from '@ui/components/data-table/url-state'
import { listChannels, listGroups } from '@ui/features/channels/api'
import { loadChannelTypes } from '@ui/features/channels/channel-types'
import { readChannelFilters } from '@ui/features/channels/filters'
import { apiContext } from '@ui/lib/api'
import { requireRole } from '@ui/lib/session'

export type ChannelListData = {
	channels: Page<ChannelListItem>
	/** The list call's failure message, shown instead of rows. */
	error: string
	groups: string[]
	channelTypes: ChannelTypeInfo[]
}

export async function loader({ request, context }: LoaderFunctionArgs): Promise<ChannelListData> {
	const api = context.get(apiContext)
	await requireRole(api)
	const paging = readPaging(request.url)
	const [channels, groups, channelTypes] = await Promise.all([listChannels(api, paging, readChannelFilters(request.url)), listGroups(api), loadChannelTypes(api)])
	return {
		channels: channels.success ? channels.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 },
		error: channels.success ? '' : channels.message,
		groups: groups.success ? groups.data : [],
		channelTypes,
	}
}

export { ChannelListPage as Component } from '@ui/features/channels/channel-list-page'
