import { type LoaderFunctionArgs } from 'react-router'
import type { Page } from '@shared/api'
import type { UserView } from '@shared/user'
import { readPaging } from '@ui/components/data-table/url-state'
import { listGroups, listUsers, readUserFilters, type UserFilters } from '@ui/features/users/api'
import { apiContext } from '@ui/lib/api'
import { requireRole } from '@ui/lib/session'

export { UsersPage as Component } from '@ui/features/users/users-page'

export type UsersData = {
	users: Page<UserView>
	groups: string[]
	filters: UserFilters
	/** The server's message when the list could not be read. */
	failure: string
}

export async function loader({ request, context }: LoaderFunctionArgs): Promise<UsersData> {
	const api = context.get(apiContext)
	await requireRole(api)
	const paging = readPaging(request.url)
	const filters = readUserFilters(request.url)
	const [users, groups] = await Promise.all([listUsers(api, paging, filters), listGroups(api)])
	return {
		users: users.success ? users.data : { items: [], page: paging.page, page_size: paging.pageSize, total: 0 },
		groups: groups.success ? groups.data : [],
		filters,
		failure: users.success ? '' : users.message,
	}
}
