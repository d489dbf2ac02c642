import type { ReactNode } from 'react'
import type { UserView } from '@shared/user'
import { Badge } from '@ui/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { ModelTags } from '@ui/features/settings/personal/model-tags'
import { useTranslation } from '@ui/i18n'
import { abbreviateNumber, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { roleTag } from '@ui/lib/role-labels'

function Figure({ label, children, ...props }: { label: string; children: ReactNode } & Record<`data-${string}`, string | number>) {
	return (
		<div className="flex flex-col gap-1 rounded-lg border bg-muted/30 p-3">
			<span className="text-xs text-muted-foreground">{label}</span>
			<span className="text-lg font-semibold tabular-nums" {...props}>
				{children}
			</span>
		</div>
	)
}

/** Name, role, ID, group, balance and usage, then the models the account's group can use. */
export function ProfileCard({ user, models }: { user: UserView; models: string[] | null }) {
	const { t } = useTranslation()
	const status = useStatus()
	const name = user.display_name || user.username
	return (
		<Card data-testid="profile-card" className="lg:col-span-2">
			<CardHeader className="flex-row flex-wrap items-center gap-3">
				<div className="flex size-12 items-center justify-center rounded-full bg-primary text-lg font-semibold text-primary-foreground" aria-hidden>
					{name.slice(0, 1).toUpperCase()}
				</div>
				<div className="flex min-w-0 flex-col gap-1.5">
					<CardTitle className="flex flex-wrap items-center gap-2">
						<span className="truncate">{name}</span>
						<Badge variant={roleTag(user.role).variant} data-testid="profile-role">{t(roleTag(user.role).label)}</Badge>
					</CardTitle>
					<CardDescription className="flex flex-wrap gap-x-4 gap-y-1">
						<span>{`${t('用户名')}: ${user.username}`}</span>
						<span data-testid="user-id">{`ID: ${user.id}`}</span>
						<span data-testid="user-group">{`${t('分组')}: ${user.group}`}</span>
					</CardDescription>
				</div>
			</CardHeader>
			<CardContent className="grid gap-3 sm:grid-cols-3">
				<Figure label={t('当前余额')} data-testid="balance" data-quota={user.quota}>
					{renderQuota(user.quota, status)}
				</Figure>
				<Figure label={t('历史消耗')} data-testid="used-quota" data-quota={user.used_quota}>
					{renderQuota(user.used_quota, status)}
				</Figure>
				<Figure label={t('请求次数')} data-testid="request-count">
					{abbreviateNumber(user.request_count)}
				</Figure>
			</CardContent>
			<CardContent className="flex flex-col gap-2">
				<h2 className="text-sm font-medium">{t('可用模型')}</h2>
				<ModelTags models={models} />
			</CardContent>
		</Card>
	)
}
