import type { Metric } from '@ui/features/dashboard/usage-summary'
import { abbreviateNumber, renderQuota } from '@ui/lib/format'
import type { Status } from '@ui/lib/status'

const CENTS_DIGITS = 2

/**
 * Quota as money (or units) as the status says; tokens and calls abbreviated. With `step` (an axis
 * grid's), money gets as many decimals as it takes to tell two lines `step` apart.
 */
export function formatMetric(metric: Metric, value: number, status: Pick<Status, 'display_in_currency' | 'quota_per_unit'>, step?: number): string {
	if (metric !== 'quota') return abbreviateNumber(value)
	if (!step || !status.display_in_currency || status.quota_per_unit <= 0) return renderQuota(value, status)
	const digits = Math.max(CENTS_DIGITS, Math.ceil(-Math.log10(step / status.quota_per_unit)))
	return renderQuota(value, status, digits)
}

/** zh labels of the metrics, for t(). */
export const METRIC_LABELS: Record<Metric, string> = {
	quota: '消耗额度',
	token_used: 'Token 用量',
	count: '调用次数',
}
