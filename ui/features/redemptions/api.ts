/** The redemption calls (docs/specification/tokens-and-money.md#calls), as the redemption page makes them. */
import type { Page } from '@shared/api'
import type { CreateRedemptionInput, RedemptionStatus, RedemptionView, UpdateRedemptionInput } from '@shared/redemption'
import { apiQuery, type Paging } from '@ui/components/data-table/url-state'
import type { Api } from '@ui/lib/api'

export type { RedemptionView }

export function readRedemptionKeyword(search: URLSearchParams) {
	return search.get('keyword') ?? ''
}

/** The list, or the search by id or name when a keyword is given. */
export function listRedemptions(api: Api, paging: Paging, keyword: string) {
	const text = keyword.trim()
	const query = apiQuery(paging, text ? { keyword: text } : {})
	return api.get<Page<RedemptionView>>(text ? `/api/redemption/search?${query}` : `/api/redemption/?${query}`)
}

export const getRedemption = (api: Api, id: number) => api.get<RedemptionView>(`/api/redemption/${id}`)
/** Answers the new codes' keys. */
export const createRedemptions = (api: Api, input: Partial<CreateRedemptionInput>) => api.post<string[]>('/api/redemption/', input)
export const updateRedemption = (api: Api, input: Partial<UpdateRedemptionInput> & Pick<UpdateRedemptionInput, 'id'>) => api.put<RedemptionView>('/api/redemption/', input)
export const setRedemptionStatus = (api: Api, id: number, status: RedemptionStatus) => api.put<RedemptionView>('/api/redemption/?status_only=true', { id, status })
export const deleteRedemption = (api: Api, id: number) => api.delete(`/api/redemption/${id}`)
