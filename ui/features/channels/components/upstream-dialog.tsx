import { UPSTREAM_CLIENT_TYPE } from '@shared/channel-constants'
import type { UpstreamGroup } from '@shared/channel'
import { Badge } from '@ui/components/ui/badge'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'
import { useFormatTime } from '@ui/lib/time-zone'

/** zh labels of the relay layers detection tells apart (docs/specification/channels.md#the-channel-tools). */
const clientLabels: Record<string, string> = {
	[UPSTREAM_CLIENT_TYPE.openai]: 'OpenAI',
	[UPSTREAM_CLIENT_TYPE.azure]: 'Azure',
	[UPSTREAM_CLIENT_TYPE.python]: 'Python 中转',
	[UPSTREAM_CLIENT_TYPE.go]: 'Go 中转',
	[UPSTREAM_CLIENT_TYPE.unknown]: '未知中转层',
}

type UpstreamDialogProps = {
	channelName: string
	/** The detected groups, or null while the dialog is closed. */
	groups: UpstreamGroup[] | null
	onClose: () => void
}

export function UpstreamDialog({ channelName, groups, onClose }: UpstreamDialogProps) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	return (
		<Dialog open={groups !== null} onOpenChange={(open) => !open && onClose()}>
			<DialogContent className="sm:max-w-2xl">
				<DialogHeader>
					<DialogTitle>{t('上游检测结果')}</DialogTitle>
					<DialogDescription>{t('渠道：{name}', { name: channelName })}</DialogDescription>
				</DialogHeader>
				{groups?.length === 0 && <p className="text-sm text-muted-foreground">{t('未检测到上游分组')}</p>}
				{groups && groups.length > 0 && (
					<Table>
						<TableHeader>
							<TableRow>
								<TableHead>{t('客户端类型')}</TableHead>
								<TableHead>{t('次数')}</TableHead>
								<TableHead>{t('首次出现')}</TableHead>
								<TableHead>{t('最后出现')}</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{groups.map((group, index) => (
								<TableRow key={index} data-testid="upstream-group">
									<TableCell>
										<div className="flex flex-wrap gap-1">
											{group.client_types.map((client) => <Badge key={client} variant="blue">{t(clientLabels[client] ?? client)}</Badge>)}
										</div>
									</TableCell>
									<TableCell className="tabular-nums">
										{Object.entries(group.counts).map(([client, count]) => (
											<div key={client}>{t(clientLabels[client] ?? client)}: {count}</div>
										))}
									</TableCell>
									<TableCell>{formatTime(group.first_seen)}</TableCell>
									<TableCell>{formatTime(group.last_seen)}</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				)}
			</DialogContent>
		</Dialog>
	)
}
