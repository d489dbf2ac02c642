import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { type AdminContentView, viewAdminContent } from '@ui/features/home/admin-content-view'
import { contentPaths, fetchContent } from '@ui/features/home/api'
import { AdminContent } from '@ui/features/home/components/admin-content'
import { NoticeCard } from '@ui/features/home/components/notice-card'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { useCurrentUser } from '@ui/lib/session'
import { useStatus } from '@ui/lib/status'

type HomeData = { content: AdminContentView | null; notice: AdminContentView | null }

/** The notice shows whatever the home page shows: the default landing or the admin's own content. */
export async function homeLoader({ context }: LoaderFunctionArgs): Promise<HomeData> {
	const api = context.get(apiContext)
	const [content, notice] = await Promise.all([fetchContent(api, contentPaths.homePage), fetchContent(api, contentPaths.notice)])
	const [contentView, noticeView] = await Promise.all([viewAdminContent(content), viewAdminContent(notice)])
	return { content: contentView, notice: noticeView }
}

function DefaultLanding({ notice }: { notice: AdminContentView | null }) {
	const { t } = useTranslation()
	const status = useStatus()
	const user = useCurrentUser()
	return (
		<div className="mx-auto flex max-w-3xl flex-col gap-8 py-10">
			<section className="flex flex-col items-center gap-4 text-center">
				<img src={status.logo} alt="" className="size-16 rounded-lg" />
				<h1 className="text-3xl font-semibold">{status.system_name}</h1>
				<p className="max-w-xl text-muted-foreground">
					{t('自托管的大模型 API 网关：一个兼容 OpenAI 的接口连接多家上游，按额度计费，并提供管理控制台。')}
				</p>
				<div className="flex flex-wrap justify-center gap-2">
					{user ? (
						<Button asChild>
							<Link to="/token">{t('进入控制台')}</Link>
						</Button>
					) : (
						<>
							<Button asChild>
								<Link to="/login">{t('登录')}</Link>
							</Button>
							{status.register_enabled && (
								<Button asChild variant="outline">
									<Link to="/register">{t('注册')}</Link>
								</Button>
							)}
						</>
					)}
				</div>
			</section>
			{notice && <NoticeCard notice={notice} />}
		</div>
	)
}

/**
 * `/`: the super admin's home page content (an address in a frame, or Markdown/HTML), else the default
 * landing; the notice, when set, is shown above either.
 */
export function HomePage() {
	const { t } = useTranslation()
	const { content, notice } = useLoaderData() as HomeData
	if (!content) return <DefaultLanding notice={notice} />
	return (
		<div className="flex flex-col gap-6">
			{notice && <NoticeCard notice={notice} />}
			<AdminContent view={content} title={t('首页')} />
		</div>
	)
}
