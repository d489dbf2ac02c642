/** The `/api/channel` calls of the channel list (docs/specification/channels.md#calls). The editor has its own (editor/api.ts). */
import type { z } from 'zod'
import type { Page } from '@shared/api'
import type { BalanceUpdateReport, ChannelListItem, ChannelView, editTagSchema, ModelSyncApply, ModelSyncReport, updateChannelSchema } from '@shared/channel'
import type { Api } from '@ui/lib/api'

/** The list's URL filters, as the loader reads them and the API takes them. */
export type ChannelFilters = {
	keyword: string
	model: string
	group: string
	idSort: boolean
	tagMode: boolean
}

export function listChannels(api: Api, paging: { page: number; pageSize: number }, filters: ChannelFilters) {
	const query = new URLSearchParams({ p: String(paging.page), page_size: String(paging.pageSize) })
	if (filters.idSort) query.set('id_sort', 'true')
	if (filters.tagMode) query.set('tag_mode', 'true')
	const searching = Boolean(filters.keyword || filters.model || filters.group)
	if (!searching) return api.get<Page<ChannelListItem>>(`/api/channel/?${query}`)
	query.set('keyword', filters.keyword)
	query.set('model', filters.model)
	query.set('group', filters.group)
	return api.get<Page<ChannelListItem>>(`/api/channel/search?${query}`)
}

export const listGroups = (api: Api) => api.get<string[]>('/api/group/')

export const updateChannel = (api: Api, update: z.input<typeof updateChannelSchema>) => api.put<ChannelView>('/api/channel/', update)
export const deleteChannel = (api: Api, id: number) => api.delete(`/api/channel/${id}/`)
export const deleteChannels = (api: Api, ids: number[]) => api.post<number>('/api/channel/batch', { ids })
export const deleteDisabledChannels = (api: Api) => api.delete<number>('/api/channel/disabled')
export const fixChannels = (api: Api) => api.post<number>('/api/channel/fix')
export const tagChannels = (api: Api, ids: number[], tag: string) => api.post<number>('/api/channel/batch/tag', { ids, tag })

/** Keys are never read back: the copy names its source and the server reuses that key. */
export function copyChannel(api: Api, channel: ChannelView) {
	const { id, key: _key, response_time: _time, used_quota: _used, balance: _balance, balance_updated_time: _balanceTime, test_time: _testTime, created_time: _created, other_info: _info, expired_time: _expired, ...fields } = channel
	return api.post<ChannelView[]>('/api/channel/', { ...fields, copy_from: id })
}

export type TagEdit = z.input<typeof editTagSchema>

export const editTag = (api: Api, edit: TagEdit) => api.put<number>('/api/channel/tag', edit)
export const enableTag = (api: Api, tag: string) => api.post<number>('/api/channel/tag/enabled', { tag })
export const disableTag = (api: Api, tag: string) => api.post<number>('/api/channel/tag/disabled', { tag })

/** The tool calls answer shapes that are checked where they are shown (see @shared/channel). */
export function testChannel(api: Api, id: number, model?: string) {
	const query = model ? `?model=${encodeURIComponent(model)}` : ''
	return api.get<unknown>(`/api/channel/test/${id}${query}`)
}
export const testAllChannels = (api: Api) => api.get<unknown>('/api/channel/test')
export const updateBalance = (api: Api, id: number) => api.get<unknown>(`/api/channel/update_balance/${id}/`)
export const updateAllBalances = (api: Api) => api.get<BalanceUpdateReport>('/api/channel/update_balance')
export const detectUpstream = (api: Api, id: number) => api.get<unknown>(`/api/channel/test_upstream/${id}`)

/** Upstream model sync: one channel's diff, or (null) every enabled channel's; then a channel's chosen changes. */
export const checkModelSync = (api: Api, id: number | null) => api.get<ModelSyncReport>(id === null ? '/api/channel/model_sync' : `/api/channel/model_sync/${id}`)
export const applyModelSync = (api: Api, id: number, choice: ModelSyncApply) => api.post<ChannelView>(`/api/channel/model_sync/${id}`, choice)
