/**
 * Balances and used quotas as opening entries (`src/billing/opening-balance.ts`). Ferry's ledger
 * needs what new-api did not enforce: a balance is never below zero, and a user has used at least
 * what their tokens used. Where new-api's numbers break that (a balance driven below zero, used
 * quotas out of step after refunds or admin edits) they are brought in line here, and each case is
 * reported. Balances above Ferry's maximum never get here: `users.ts` leaves those accounts behind.
 */
import type { OpeningAccount } from '@/billing/opening-balance'
import type { ReportSection } from './report'
import type { TokenRow } from './tokens'
import type { UserRow } from './users'

/** Adjusts the rows where they break the ledger's rules, and answers each user's opening entries. */
export function openingAccounts(users: UserRow[], tokens: readonly TokenRow[], report: ReportSection): OpeningAccount[] {
	const tokensOf = new Map<number, TokenRow[]>()
	for (const token of tokens) {
		const owned = tokensOf.get(token.userId)
		if (owned) owned.push(token)
		else tokensOf.set(token.userId, [token])
	}
	return users.map((user) => {
		if (user.quota < 0) {
			report.note('balance below zero in new-api: opened at 0 (Ferry balances never go below zero)', `${user.id} (${user.quota})`)
			user.quota = 0
		}
		if (user.usedQuota < 0) {
			report.note('used quota below zero: imported as 0', user.id)
			user.usedQuota = 0
		}
		const owned = tokensOf.get(user.id) ?? []
		const tokensUsed = owned.reduce((total, token) => total + token.usedQuota, 0)
		if (tokensUsed > user.usedQuota) {
			report.note("used quota below its tokens' used quota: raised to theirs", `${user.id} (${user.usedQuota} → ${tokensUsed})`)
			user.usedQuota = tokensUsed
		}
		return {
			userId: user.id,
			username: user.username,
			balance: user.quota,
			usedQuota: user.usedQuota,
			tokens: owned.map((token) => ({ tokenId: token.id, usedQuota: token.usedQuota, limited: !token.unlimitedQuota })),
		}
	})
}
