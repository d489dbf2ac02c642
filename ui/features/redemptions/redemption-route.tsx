import type { LoaderFunctionArgs } from 'react-router'
import type { Page } from '@shared/api'
import { readPaging } from '@ui/components/data-table/url-state'
import { listRedemptions, readRedemptionKeyword, type RedemptionView } from '@ui/features/redemptions/api'
import { apiContext } from '@ui/lib/api'
import { requireRole } from '@ui/lib/session'

export { RedemptionPage as Component } from '@ui/features/redemptions/redemption-page'

export type RedemptionPageData = {
	codes: Page<RedemptionView>
	keyword: string
	/** The list call's refusal, shown instead of rows. */
	failure: string
}

/** Admins only: the page of codes the URL asks for (list, or search by id or name). */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<RedemptionPageData> {
	const api = context.get(apiContext)
	await requireRole(api)
	const url = new URL(request.url)
	const paging = readPaging(url)
	const keyword = readRedemptionKeyword(url.searchParams)
	const list = await listRedemptions(api, paging, keyword)
	return {
		codes: list.success ? list.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 },
		keyword,
		failure: list.success ? '' : list.message,
	}
}
