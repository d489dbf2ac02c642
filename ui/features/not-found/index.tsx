import { data, Link, type RouteObject } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'

export const notFoundMessage = '页面不存在，请检查地址'

function NotFoundPage() {
	const { t } = useTranslation()
	return (
		<main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
			<p className="text-5xl font-semibold text-muted-foreground">404</p>
			<h1 className="text-xl font-semibold">{t(notFoundMessage)}</h1>
			<Button asChild variant="outline">
				<Link to="/">{t('返回首页')}</Link>
			</Button>
		</main>
	)
}

/** The server answers with this loader's status, so unknown paths are real 404s. */
export const notFoundRoute: RouteObject = {
	id: 'not-found',
	path: '*',
	handle: { title: notFoundMessage },
	loader: () => data(null, { status: 404 }),
	Component: NotFoundPage,
}
