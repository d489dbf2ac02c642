import type { ChannelFilters } from '@ui/features/channels/api'

/** URL parameters of the list; the flags are present as `true` or absent. */
export const filterParameters = { keyword: 'keyword', model: 'model', group: 'group', idSort: 'id_sort', tagMode: 'tag_mode' } as const

const flagValue = 'true'
export const flag = (on: boolean) => on ? flagValue : null

export function readChannelFilters(url: URL | string): ChannelFilters {
	return filtersFromSearch(new URL(url, 'http://console').searchParams)
}

export function filtersFromSearch(search: URLSearchParams): ChannelFilters {
	return {
		keyword: search.get(filterParameters.keyword)?.trim() ?? '',
		model: search.get(filterParameters.model)?.trim() ?? '',
		group: search.get(filterParameters.group)?.trim() ?? '',
		idSort: search.get(filterParameters.idSort) === flagValue,
		tagMode: search.get(filterParameters.tagMode) === flagValue,
	}
}
