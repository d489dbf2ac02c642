import { type MouseEvent, useEffect } from 'react'
import { Link, type LoaderFunctionArgs, useLoaderData, useLocation, useNavigate } from 'react-router'
import { DOCS_CONSOLE_ROOT } from '@shared/docs-paths'
import { fetchDocsPage } from '@ui/features/docs/api'
import { proseClasses } from '@ui/features/home/components/admin-content'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { requireRole } from '@ui/lib/session'

type DocsData = { path: string; html: string; failure: string }

/** `/docs/*` (admins): the repository's documentation page the path names, rendered in the loader. */
export async function loader({ params, context }: LoaderFunctionArgs): Promise<DocsData> {
	const api = context.get(apiContext)
	await requireRole(api)
	const page = await fetchDocsPage(api, params['*'] ?? '')
	if (!page.success) return { path: '', html: '', failure: page.message }
	const { renderDocsPage } = await import('@ui/features/docs/docs-markdown')
	return { path: page.data.path, html: renderDocsPage(page.data.path, page.data.markdown), failure: '' }
}

/** Links between pages stay in the console; an anchor on the page scrolls to its heading. */
function useDocsNavigation() {
	const navigate = useNavigate()
	const location = useLocation()
	useEffect(() => {
		if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView()
	}, [location.key, location.hash])
	return (event: MouseEvent<HTMLElement>) => {
		const link = (event.target as HTMLElement).closest('a')
		const href = link?.getAttribute('href') ?? ''
		if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
		if (!href.startsWith(`${DOCS_CONSOLE_ROOT}/`) && href !== DOCS_CONSOLE_ROOT) return
		event.preventDefault()
		navigate(href)
	}
}

export function Component() {
	const { t } = useTranslation()
	const { path, html, failure } = useLoaderData() as DocsData
	const followLink = useDocsNavigation()
	return (
		<div className="mx-auto flex max-w-4xl flex-col gap-4 pb-10">
			<nav className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
				<Link to={DOCS_CONSOLE_ROOT} className="text-primary underline underline-offset-4">
					{t('文档首页')}
				</Link>
				{path && <code className="rounded bg-muted px-1 font-mono">{path}</code>}
			</nav>
			{failure ? (
				<p role="alert" className="text-muted-foreground">
					{t('没有这篇文档。')}
				</p>
			) : (
				// Clicks are delegated (the page is sanitised HTML, its links plain anchors); a link's keyboard activation is a click too.
				<article data-slot="docs-page" className={proseClasses} onClick={followLink} dangerouslySetInnerHTML={{ __html: html }} />
			)}
		</div>
	)
}
