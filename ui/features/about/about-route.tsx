import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { DOCS_CONSOLE_ROOT } from '@shared/docs-paths'
import { type AdminContentView, viewAdminContent } from '@ui/features/home/admin-content-view'
import { contentPaths, fetchContent } from '@ui/features/home/api'
import { AdminContent } from '@ui/features/home/components/admin-content'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { isAdmin, useCurrentUser } from '@ui/lib/session'

type AboutData = { content: AdminContentView | null }

export async function loader({ context }: LoaderFunctionArgs): Promise<AboutData> {
	return { content: await viewAdminContent(await fetchContent(context.get(apiContext), contentPaths.about)) }
}

/** Admins find the repository's documentation here (`/docs`); others never see the link. */
function DocsLink() {
	const { t } = useTranslation()
	if (!isAdmin(useCurrentUser())) return null
	return (
		<p>
			<Link to={DOCS_CONSOLE_ROOT} data-slot="docs-link" className="text-primary underline underline-offset-4">
				{t('阅读 Ferry 的文档（仅管理员可见）')}
			</Link>
		</p>
	)
}

/** `/about`: public; the super admin's about content rendered like the home page, or a default text. */
export function Component() {
	const { t } = useTranslation()
	const { content } = useLoaderData() as AboutData
	if (content) {
		return (
			<div className="flex flex-col gap-4">
				<AdminContent view={content} title={t('关于')} />
				<DocsLink />
			</div>
		)
	}
	return (
		<div className="mx-auto flex max-w-3xl flex-col gap-3 py-10">
			<h1 className="text-2xl font-semibold">{t('关于')}</h1>
			<p className="text-muted-foreground">{t('管理员暂未设置关于页面的内容。')}</p>
			<DocsLink />
		</div>
	)
}
