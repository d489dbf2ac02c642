import { Badge } from '@ui/components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '@ui/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import type { TopUpView } from '@ui/features/top-up/api'
import { formatMoney, TOP_UP_STATUS_DISPLAY } from '@ui/features/top-up/top-up-display'
import { useTranslation } from '@ui/i18n'
import { useFormatTime } from '@ui/lib/time-zone'
import { builtInText } from '@ui/lib/built-in-texts'
import { useStatus } from '@ui/lib/status'

export function TopUpStatusBadge({ status }: { status: TopUpView['status'] }) {
	const { t } = useTranslation()
	const display = TOP_UP_STATUS_DISPLAY[status] ?? TOP_UP_STATUS_DISPLAY.pending
	return <Badge variant={display.variant} data-status={status}>{t(display.label)}</Badge>
}

/** The caller's latest online top-up orders. */
export function TopUpRecords({ records }: { records: TopUpView[] }) {
	const { t } = useTranslation()
	const status = useStatus()
	// A record names its method by type (`alipay`): the configured methods give its name.
	const methodNames = new Map(status.pay_methods.map((method) => [method.type, method.name]))
	const formatTime = useFormatTime()
	return (
		<Card data-testid="top-up-records">
			<CardHeader>
				<CardTitle>{t('充值记录')}</CardTitle>
			</CardHeader>
			<CardContent>
				{records.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('暂无充值记录')}</p>
				) : (
					<Table>
						<TableHeader>
							<TableRow>
								<TableHead>{t('订单号')}</TableHead>
								<TableHead>{t('支付方式')}</TableHead>
								<TableHead>{t('充值数量')}</TableHead>
								<TableHead>{t('实付金额')}</TableHead>
								<TableHead>{t('状态')}</TableHead>
								<TableHead>{t('创建时间')}</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{records.map((record) => (
								<TableRow key={record.id} data-trade-no={record.trade_no}>
									<TableCell className="font-mono text-xs">{record.trade_no}</TableCell>
									<TableCell>{t(builtInText(methodNames.get(record.payment_method) ?? record.payment_method))}</TableCell>
									<TableCell className="tabular-nums">{record.amount}</TableCell>
									<TableCell className="tabular-nums">{formatMoney(record.money)}</TableCell>
									<TableCell><TopUpStatusBadge status={record.status} /></TableCell>
									<TableCell className="tabular-nums">{formatTime(record.create_time)}</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				)}
			</CardContent>
		</Card>
	)
}
