/**
 * new-api's `top_ups` (model/topup.go), the online payment orders, as the wallet's history. A paid
 * order's quota is already in its user's balance; a failed one credited nothing. A pending order
 * stays behind: new-api opened it with its own pricing, and crediting it when the payment service
 * calls Ferry later could credit a different amount — settle or cancel it in new-api before the
 * move. one-api has no online payment.
 */
import { TOP_UP_STATUS } from '@shared/top-up'
import type { Tables } from '@/db'
import type { ReportSection } from './report'
import type { SourceRow } from './source'
import { decimal, integer, outOfRange, text, unixSeconds } from './values'

export type TopUpRow = Tables['topUps']['$inferInsert'] & { id: number }

const FINISHED = new Set<string>([TOP_UP_STATUS.success, TOP_UP_STATUS.failed])

export function mapTopUps(sourceRows: readonly SourceRow[], users: ReadonlySet<number>, now: number, report: ReportSection): TopUpRow[] {
	const orders: TopUpRow[] = []
	const tradeNumbers = new Set<string>()
	for (const row of sourceRows) {
		report.read += 1
		const id = integer(row, 'id')
		const tradeNo = text(row, 'trade_no').trim()
		const status = text(row, 'status').trim()
		if (!FINISHED.has(status)) {
			report.skip('pending: settle or cancel it in new-api before the move (its credit is not carried)', id)
			continue
		}
		if (id <= 0 || !tradeNo || tradeNumbers.has(tradeNo) || !users.has(integer(row, 'user_id'))) {
			report.skip('no id, no trade number, a trade number already imported, or no such user', id)
			continue
		}
		const order: TopUpRow = {
			id,
			userId: integer(row, 'user_id'),
			amount: integer(row, 'amount'),
			money: decimal(row, 'money'),
			tradeNo,
			paymentMethod: text(row, 'payment_method'),
			createTime: unixSeconds(row, 'create_time', now) || now,
			completeTime: unixSeconds(row, 'complete_time'),
			status,
		}
		const problem = outOfRange(order)
		if (problem) {
			report.skip(problem, id)
			continue
		}
		tradeNumbers.add(tradeNo)
		orders.push(order)
	}
	report.imported = orders.length
	return orders
}
