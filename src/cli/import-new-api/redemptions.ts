/**
 * new-api's `redemptions` (model/redemption.go): each code keeps its key, quota and state. A used
 * code stays used (its quota is already in a balance), an unused one redeems once in Ferry, through
 * the ledger like any code; deleted codes come over deleted. one-api has no expiry, no `used_user_id`
 * and no soft delete: its codes never expire.
 */
import { MAX_QUOTA } from '@shared/quota-limit'
import { REDEMPTION_NEVER_EXPIRES, REDEMPTION_STATUS } from '@shared/redemption'
import type { Tables } from '@/db'
import type { ReportSection } from './report'
import type { SourceRow } from './source'
import { deletedAt, integer, outOfRange, text, unixSeconds } from './values'

export type RedemptionRow = Tables['redemptions']['$inferInsert'] & { id: number }

const KNOWN_STATUSES = new Set<number>(Object.values(REDEMPTION_STATUS))

export function mapRedemptions(sourceRows: readonly SourceRow[], now: number, report: ReportSection): RedemptionRow[] {
	const codes: RedemptionRow[] = []
	const keys = new Set<string>()
	for (const row of sourceRows) {
		report.read += 1
		const id = integer(row, 'id')
		const key = text(row, 'key').trim()
		if (id <= 0 || !key || keys.has(key)) {
			report.skip('no id, no key or a key already imported', id)
			continue
		}
		const quota = integer(row, 'quota')
		if (quota < 0 || quota > MAX_QUOTA) {
			report.skip(`quota outside 0…${MAX_QUOTA}`, id)
			continue
		}
		let status = integer(row, 'status', REDEMPTION_STATUS.unused)
		if (!KNOWN_STATUSES.has(status)) {
			report.note(`status ${status} is not a redemption status: imported as disabled`, id)
			status = REDEMPTION_STATUS.disabled
		}
		const code: RedemptionRow = {
			id,
			userId: Math.max(0, integer(row, 'user_id')),
			key,
			status,
			name: text(row, 'name'),
			quota,
			createdTime: unixSeconds(row, 'created_time', now) || now,
			redeemedTime: unixSeconds(row, 'redeemed_time'),
			usedUserId: Math.max(0, integer(row, 'used_user_id')),
			expiredTime: unixSeconds(row, 'expired_time', REDEMPTION_NEVER_EXPIRES),
			deletedAt: deletedAt(row, now),
		}
		const problem = outOfRange(code)
		if (problem) {
			report.skip(problem, id)
			continue
		}
		keys.add(key)
		codes.push(code)
	}
	report.imported = codes.length
	return codes
}
