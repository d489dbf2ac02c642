/** The user administration calls (docs/specification/accounts-and-settings.md#calls). */
import type { Page } from '@shared/api'
import type { BindingProvider } from '@shared/oauth'
import type { ManageAction, UserView } from '@shared/user'
import { apiQuery, type Paging } from '@ui/components/data-table/url-state'
import type { Api } from '@ui/lib/api'

export type UserFilters = { keyword: string; group: string }

type NewUser = { username: string; display_name: string; password: string }

/** Password is sent only when it is to change; quota is the new remaining quota in units. */
type UserChanges = { id: number; username: string; display_name: string; group: string; quota: number; password?: string }

export function readUserFilters(url: URL | string): UserFilters {
	const search = new URL(url, 'http://console').searchParams
	return { keyword: search.get('keyword') ?? '', group: search.get('group') ?? '' }
}

/** The plain list when nothing is filtered, the search otherwise (both answer a Page). */
export function listUsers(api: Api, paging: Paging, filters: UserFilters) {
	if (!filters.keyword && !filters.group) return api.get<Page<UserView>>(`/api/user/?${apiQuery(paging)}`)
	return api.get<Page<UserView>>(`/api/user/search?${apiQuery(paging, filters)}`)
}

export function listGroups(api: Api) {
	return api.get<string[]>('/api/group/')
}

export function getUser(api: Api, id: number) {
	return api.get<UserView>(`/api/user/${id}`)
}

export function createUser(api: Api, user: NewUser) {
	return api.post<UserView>('/api/user/', user)
}

export function updateUser(api: Api, changes: UserChanges) {
	return api.put<UserView>('/api/user/', changes)
}

export function manageUser(api: Api, id: number, action: ManageAction) {
	return api.post<Pick<UserView, 'status' | 'role'>>('/api/user/manage', { id, action })
}

export function unbindUserProvider(api: Api, id: number, provider: BindingProvider) {
	return api.delete(`/api/user/${id}/bind/${provider}`)
}
