import { ShieldXIcon } from 'lucide-react'
import { isRouteErrorResponse, Link, type LoaderFunctionArgs, Outlet, useLoaderData, useRouteError } from 'react-router'
import type { UserView } from '@shared/user'
import { AppLayout } from '@ui/components/layout/app-layout'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { notAllowedStatus, requireSelf } from '@ui/lib/session'
import { notFoundMessage } from '@ui/features/not-found'
import { rootShouldRevalidate } from '@ui/root'

type ConsoleData = { user: UserView }

/** Every page behind the login: no account → /login, an expired session → /login?expired=true. */
export async function consoleLoader({ context }: LoaderFunctionArgs): Promise<ConsoleData> {
	return { user: await requireSelf(context.get(apiContext)) }
}

export const consoleShouldRevalidate = rootShouldRevalidate

export function ConsoleLayout() {
	const { user } = useLoaderData() as ConsoleData
	return (
		<AppLayout role={user.role}>
			<Outlet />
		</AppLayout>
	)
}

const notAllowedMessage = '无权进行此操作'

/**
 * The error state of a page inside the console layout (the menu stays): an admin page opened by a
 * lesser role (its loader throws 403 before fetching any data), or a page that failed.
 */
export function PageErrorBoundary() {
	const error = useRouteError()
	const { t } = useTranslation()
	const notAllowed = isRouteErrorResponse(error) && error.status === notAllowedStatus
	const notFound = isRouteErrorResponse(error) && error.status === 404
	const message = notAllowed ? notAllowedMessage : notFound ? notFoundMessage : '出错了，请刷新页面重试'
	return (
		<div role="alert" data-testid={notAllowed ? 'not-allowed' : 'page-error'} className="flex flex-col items-center justify-center gap-4 py-24 text-center">
			<ShieldXIcon className="size-10 text-muted-foreground" />
			<h1 className="text-lg font-semibold">{t(message)}</h1>
			<Button asChild variant="outline">
				<Link to="/token">{t('返回')}</Link>
			</Button>
		</div>
	)
}
