import { useRevalidator } from 'react-router'
import { TOP_UP_STATUS } from '@shared/top-up-constants'
import { Button } from '@ui/components/ui/button'
import { TopUpStatusBadge } from '@ui/features/top-up/components/top-up-records'
import type { TopUpPageData } from '@ui/features/top-up/top-up-route'
import { useTranslation } from '@ui/i18n'

/** Back from the payment service: the order's state as Ferry recorded it (the return query is not trusted). */
export function ReturnNotice({ returned }: { returned: NonNullable<TopUpPageData['returned']> }) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const { record } = returned
	let text = t('未找到该订单')
	if (record?.status === TOP_UP_STATUS.success) text = t('支付成功，额度已到账')
	else if (record?.status === TOP_UP_STATUS.pending) text = t('正在等待支付结果，请稍后刷新')
	else if (record?.status === TOP_UP_STATUS.failed) text = t('支付失败')
	return (
		<div role="status" data-testid="top-up-return" data-status={record?.status ?? 'unknown'} className="flex flex-wrap items-center gap-3 rounded-lg border bg-muted/30 p-3 text-sm">
			<span className="font-mono text-xs">{`${t('订单号')}: ${returned.tradeNo}`}</span>
			{record ? <TopUpStatusBadge status={record.status} /> : null}
			<span>{text}</span>
			{record?.status === TOP_UP_STATUS.pending ? (
				<Button type="button" size="sm" variant="outline" onClick={() => void revalidator.revalidate()}>
					{t('刷新')}
				</Button>
			) : null}
		</div>
	)
}
