import { type ReactNode, useEffect } from 'react'
import { isRouteErrorResponse, Link, type LoaderFunctionArgs, Outlet, type ShouldRevalidateFunctionArgs, useLoaderData, useMatches, useRouteError } from 'react-router'
import type { UserView } from '@shared/user'
import { ManualCopyDialog } from '@ui/components/ui/copy'
import { Button } from '@ui/components/ui/button'
import { Toaster } from '@ui/components/ui/toaster'
import { TooltipProvider } from '@ui/components/ui/tooltip'
import { htmlLanguage, I18nProvider, type Language, useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { loadSelf, SessionProvider } from '@ui/lib/session'
import { loadStatus, type Status, useStatus } from '@ui/lib/status'
import { storageKeys, writeStorage } from '@ui/lib/storage'
import { followSystemThemeScript, type PageTheme, ThemeProvider } from '@ui/lib/theme'
import { TimeZoneProvider } from '@ui/lib/time-zone'
import { notFoundMessage } from '@ui/features/not-found'

/** Rendered identically by the server and by entry.client, so every prop travels in `window.__documentProps`. */
export type DocumentProps = { stylesheet: string; language: Language; theme: PageTheme; timeZone: string }

export function Document({ stylesheet, language, theme, timeZone, children }: DocumentProps & { children: ReactNode }) {
	return (
		<html lang={htmlLanguage(language)} className={theme === 'dark' ? 'dark' : undefined}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<link rel="icon" href="/logo.png" />
				<link rel="stylesheet" href={stylesheet} />
				{theme === 'system' && <script dangerouslySetInnerHTML={{ __html: followSystemThemeScript }} />}
			</head>
			<body>
				<ThemeProvider initialTheme={theme}>
					<I18nProvider initialLanguage={language}>
						<TimeZoneProvider initialTimeZone={timeZone}>{children}</TimeZoneProvider>
					</I18nProvider>
				</ThemeProvider>
			</body>
		</html>
	)
}

type RootData = { status: Status; user: UserView | null }

export async function rootLoader({ context }: LoaderFunctionArgs): Promise<RootData> {
	const api = context.get(apiContext)
	const [status, user] = await Promise.all([loadStatus(api), loadSelf(api)])
	return { status, user }
}

/** Status and session are read once per page load (and after form actions), not on every navigation. */
export function rootShouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
	return formMethod ? defaultShouldRevalidate : false
}

/** Browser tests wait for this flag instead of guessing when hydration has finished. */
function useMarkHydrated() {
	useEffect(() => {
		window.__hydrated = true
	}, [])
}

/** A route may set `handle: { title }` (a zh source string); the page title is that plus the system name. */
type RouteHandle = { title?: string }

function usePageTitle() {
	const { t } = useTranslation()
	const status = useStatus()
	const title = useMatches()
		.map((match) => (match.handle as RouteHandle | undefined)?.title)
		.findLast((value) => value !== undefined)
	return title ? `${t(title)} - ${status.system_name}` : status.system_name
}

export function Root() {
	const title = usePageTitle()
	const { status, user } = useLoaderData() as RootData
	useMarkHydrated()
	// The footer's start-up refresh and other pages read the cached status (docs/specification/console.md#layout).
	useEffect(() => writeStorage(storageKeys.status, JSON.stringify(status)), [status])
	return (
		<SessionProvider initialUser={user}>
			<TooltipProvider delayDuration={300}>
				<title>{title}</title>
				<Outlet />
				<Toaster />
				<ManualCopyDialog />
			</TooltipProvider>
		</SessionProvider>
	)
}

export function RootErrorBoundary() {
	const error = useRouteError()
	const { t } = useTranslation()
	const status = useStatus()
	useMarkHydrated()
	const message = isRouteErrorResponse(error) && error.status === 404 ? t(notFoundMessage) : t('出错了，请刷新页面重试')
	return (
		<main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
			<title>{`${message} - ${status.system_name}`}</title>
			<h1 className="text-xl font-semibold">{message}</h1>
			<Button asChild variant="outline">
				<Link to="/">{t('返回首页')}</Link>
			</Button>
		</main>
	)
}
