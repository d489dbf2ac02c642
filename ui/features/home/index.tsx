import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@ui/components/ui/card'
import { type AdminContentView, viewAdminContent } from '@ui/features/home/admin-content-view'
import { contentPaths, fetchContent } from '@ui/features/home/api'
import { AdminContent } from '@ui/features/home/components/admin-content'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { useCurrentUser } from '@ui/lib/session'
import { useStatus } from '@ui/lib/status'

type HomeData = { content: AdminContentView | null; notice: AdminContentView | null }

/** The notice is only read for the default landing, which is the only place that shows it. */
export async function homeLoader({ context }: LoaderFunctionArgs): Promise<HomeData> {
	const api = context.get(apiContext)
	const content = await fetchContent(api, contentPaths.homePage)
	if (content.trim()) return { content: await viewAdminContent(content), notice: null }
	return { content: null, notice: await viewAdminContent(await fetchContent(api, contentPaths.notice)) }
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
			{notice && (
				<Card>
					<CardHeader>
						<CardTitle className="text-lg">{t('公告')}</CardTitle>
					</CardHeader>
					<CardContent>
						<AdminContent view={notice} title={t('公告')} />
					</CardContent>
				</Card>
			)}
		</div>
	)
}

/** `/`: the super admin's home page content (an address in a frame, or Markdown/HTML), else the default landing. */
export function HomePage() {
	const { t } = useTranslation()
	const { content, notice } = useLoaderData() as HomeData
	if (!content) return <DefaultLanding notice={notice} />
	return <AdminContent view={content} title={t('首页')} />
}
