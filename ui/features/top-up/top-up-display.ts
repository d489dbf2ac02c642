/** How the wallet shows amounts and order states. */
import { MAX_QUOTA } from '@shared/quota-limit'
import { TOP_UP_STATUS } from '@shared/top-up-constants'
import type { TopUpStatus } from '@shared/top-up'
import type { BadgeVariant } from '@ui/components/ui/badge'
import type { Status } from '@ui/lib/status'

export const TOP_UP_STATUS_DISPLAY: Record<TopUpStatus, { label: string; variant: BadgeVariant }> = {
	[TOP_UP_STATUS.success]: { label: '成功', variant: 'green' },
	[TOP_UP_STATUS.pending]: { label: '待支付', variant: 'yellow' },
	[TOP_UP_STATUS.failed]: { label: '失败', variant: 'red' },
}

/**
 * The smallest amount accepted, in the display unit (MinTopUp and a method's `min_topup` are in
 * dollars): with a method, the larger of the two.
 */
export function minimumTopUp(status: Pick<Status, 'min_topup' | 'display_in_currency' | 'quota_per_unit'>, method?: Pick<Status['pay_methods'][number], 'min_topup'>): number {
	const dollars = Math.max(status.min_topup, Number(method?.min_topup ?? 0) || 0)
	return status.display_in_currency ? dollars : dollars * status.quota_per_unit
}

/** The amount field's text as a whole number, at least 1 (docs/specification/tokens-and-money.md#online-top-up: amount input floor 1). */
export function parseTopUpAmount(text: string): number {
	const value = Math.floor(Number(text))
	return Number.isFinite(value) && value >= 1 ? value : 1
}

/** Money in the payment service's currency, which Price converts dollars into. */
export const formatMoney = (money: number | string) => `¥${Number(money).toFixed(2)}`

/** The quota an amount in the display unit credits. */
export function creditedQuota(amount: number, status: Pick<Status, 'display_in_currency' | 'quota_per_unit'>): number {
	return status.display_in_currency ? Math.round(amount * status.quota_per_unit) : amount
}

/**
 * Whether crediting `quota` would lift `balance` past the maximum (@shared/quota-limit). The server
 * has the last word (it also counts calls in flight); this spares the payer a refused order.
 */
export const exceedsBalanceLimit = (balance: number, quota: number) => quota > MAX_QUOTA - balance
