import { type ReactNode, useEffect } from 'react'
import { isRouteErrorResponse, Link, type LoaderFunctionArgs, Outlet, useMatches, useRouteError } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Toaster } from '@ui/components/ui/toaster'
import { htmlLanguage, I18nProvider, type Language, useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { loadStatus, useStatus } from '@ui/lib/status'
import { notFoundMessage } from '@ui/features/not-found'

/** Rendered identically by the server and by entry.client, so every prop travels in `window.__documentProps`. */
export type DocumentProps = { stylesheet: string; language: Language }

export function Document({ stylesheet, language, children }: DocumentProps & { children: ReactNode }) {
	return (
		<html lang={htmlLanguage(language)}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<link rel="icon" href="/logo.png" />
				<link rel="stylesheet" href={stylesheet} />
			</head>
			<body>
				<I18nProvider initialLanguage={language}>{children}</I18nProvider>
			</body>
		</html>
	)
}

export function rootLoader({ context }: LoaderFunctionArgs) {
	return loadStatus(context.get(apiContext))
}

/** Browser tests wait for this flag instead of guessing when hydration has finished. */
function useMarkHydrated() {
	useEffect(() => {
		window.__hydrated = true
	}, [])
}

/** A route may set `handle: { title }` (a zh source string); the page title is that plus the system name. */
export type RouteHandle = { title?: string }

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
	useMarkHydrated()
	return (
		<>
			<title>{title}</title>
			<Outlet />
			<Toaster />
		</>
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
