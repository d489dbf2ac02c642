import { type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { type AdminContentView, viewAdminContent } from '@ui/features/home/admin-content-view'
import { contentPaths, fetchContent } from '@ui/features/home/api'
import { AdminContent } from '@ui/features/home/components/admin-content'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'

type AboutData = { content: AdminContentView | null }

export async function loader({ context }: LoaderFunctionArgs): Promise<AboutData> {
	return { content: await viewAdminContent(await fetchContent(context.get(apiContext), contentPaths.about)) }
}

/** `/about`: public; the super admin's about content rendered like the home page, or a default text. */
export function Component() {
	const { t } = useTranslation()
	const { content } = useLoaderData() as AboutData
	if (content) return <AdminContent view={content} title={t('关于')} />
	return (
		<div className="mx-auto flex max-w-3xl flex-col gap-3 py-10">
			<h1 className="text-2xl font-semibold">{t('关于')}</h1>
			<p className="text-muted-foreground">{t('管理员暂未设置关于页面的内容。')}</p>
		</div>
	)
}
