import type { LoaderFunctionArgs } from 'react-router'
import type { Page } from '@shared/api'
import { readPaging } from '@ui/components/data-table/url-state'
import { apiContext } from '@ui/lib/api'
import { startOfDay, viewerTimeZone } from '@ui/lib/time-zone'
import { listGroups, listModels, listTokens, readTokenFilters, spentSince, type TokenView, type UsableGroups } from '@ui/features/tokens/api'
import type { QuickStartData } from '@ui/features/tokens/components/quick-start'

export { TokenPage as Component } from '@ui/features/tokens/token-page'

export type TokenPageData = {
	tokens: Page<TokenView>
	/** The list call's refusal, shown instead of rows. */
	error: string
	/** For the editor: the models and groups the user may limit a token to. */
	models: string[]
	groups: UsableGroups
	start: QuickStartData
}

/** The page of tokens the URL asks for (list, or search by name and key), with the editor's choices. */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<TokenPageData> {
	const api = context.get(apiContext)
	const url = new URL(request.url)
	const paging = readPaging(url)
	const now = Math.floor(Date.now() / 1000)
	const [list, models, groups, spent] = await Promise.all([
		listTokens(api, paging, readTokenFilters(url.searchParams)),
		listModels(api).catch(() => undefined),
		listGroups(api).catch(() => undefined),
		spentSince(api, startOfDay(now, viewerTimeZone(request))).catch(() => undefined),
	])
	return {
		tokens: list.success ? list.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 },
		error: list.success ? '' : list.message,
		models: models?.success ? models.data : [],
		groups: groups?.success ? groups.data : {},
		start: { origin: url.origin, todaySpent: spent?.success ? spent.data.quota : null },
	}
}
