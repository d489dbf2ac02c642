/** The token calls (docs/specification/tokens-and-money.md#calls), as the token page makes them. */
import type { Page } from '@shared/api'
import type { CreateTokenInput, TokenStatus, TokenView, UpdateTokenInput } from '@shared/token'
import type { UsableGroups } from '@shared/user'
import { apiQuery, type Paging } from '@ui/components/data-table/url-state'
import type { Api } from '@ui/lib/api'

export type { TokenView, UsableGroups }

export type TokenFilters = { keyword: string; token: string }

export function readTokenFilters(search: URLSearchParams): TokenFilters {
	return { keyword: search.get('keyword') ?? '', token: search.get('token') ?? '' }
}

/** The list, or the search when a name or key is given. */
export function listTokens(api: Api, paging: Paging, filters: TokenFilters) {
	const searching = filters.keyword.trim() !== '' || filters.token.trim() !== ''
	const query = apiQuery(paging, searching ? { keyword: filters.keyword.trim(), token: filters.token.trim() } : {})
	return api.get<Page<TokenView>>(searching ? `/api/token/search?${query}` : `/api/token/?${query}`)
}

export const listModels = (api: Api) => api.get<string[]>('/api/user/models')
export const listGroups = (api: Api) => api.get<UsableGroups>('/api/user/self/groups')
/** What the caller's calls since `start` (unix seconds) cost, in quota. */
export const spentSince = (api: Api, start: number) => api.get<{ quota: number }>(`/api/log/self/stat?start_timestamp=${start}`)
export const getToken = (api: Api, id: number) => api.get<TokenView>(`/api/token/${id}`)

/** Answers the created tokens: the first named `name`, the others `name-XXXXXX`. */
export const createTokens = (api: Api, input: Partial<CreateTokenInput> & Pick<CreateTokenInput, 'name'>) => api.post<TokenView[]>('/api/token/', input)
/** Only the fields given change. */
export const updateToken = (api: Api, input: Partial<UpdateTokenInput> & Pick<UpdateTokenInput, 'id'>) => api.put<TokenView>('/api/token/', input)
export const setTokenStatus = (api: Api, id: number, status: TokenStatus) => api.put<TokenView>('/api/token/?status_only=true', { id, status })
export const deleteToken = (api: Api, id: number) => api.delete(`/api/token/${id}`)
