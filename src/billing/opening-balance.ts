/**
 * Opening a ledger for accounts that come from another system (`ferry import new-api`). Their rows
 * arrive with a balance and a used quota that no request through Ferry produced; these entries
 * explain them to the ledger (docs/architecture.md#the-ledger), so the audit is exact from the first moment:
 *
 *   - a credit log line (type system) of the balance: "opening balance";
 *   - a credit log line of the used quota — everything the account ever spent was credited once —
 *     matched by settled holds that charge it: one per token with that token's used quota, one
 *     without a token for the rest (spent through tokens since deleted, or outside any token).
 *
 * So for every account `quota + Σ settled − Σ credits = balance + used − (balance + used) = 0`,
 * `used_quota = Σ settled`, and each token's `used_quota` is its settled charge. The settled holds
 * carry no consume log line: the spending they stand for happened before the move (its log lines,
 * when imported, are the history) and must not be counted twice.
 */
import { LOG_TYPE } from '@shared/log'
import type { Database, Tables } from '@/db'
import { insertRows } from '@/db/bulk-insert'
import { HOLD_STATE } from './holds'
import { storedLine } from '@shared/messages/logs'

export interface OpeningAccount {
	userId: number
	username: string
	/** What the account row's `quota` holds. */
	balance: number
	/** What the account row's `used_quota` holds: at least the sum of its tokens' used quota. */
	usedQuota: number
	tokens: readonly { tokenId: number; usedQuota: number; limited: boolean }[]
}

export interface OpeningContext {
	/** Named in the log lines: "opening balance carried over from <source>". */
	source: string
	time: number
	/** Log ids from here on (above the history being imported); the database numbers them when absent. */
	firstLogId?: number
}

/** The hold reason of an opening charge, and the prefix of its request id. */
export const OPENING_REASON = 'opening'

function check(account: OpeningAccount) {
	const amounts = [account.balance, account.usedQuota, ...account.tokens.map((token) => token.usedQuota)]
	if (!amounts.every((amount) => Number.isSafeInteger(amount) && amount >= 0)) throw new Error(`opening amounts of user ${account.userId} must be whole numbers, not below zero`)
	const tokensUsed = account.tokens.reduce((total, token) => total + token.usedQuota, 0)
	if (tokensUsed > account.usedQuota) throw new Error(`the tokens of user ${account.userId} used more than the user: ${tokensUsed} > ${account.usedQuota}`)
}

/** A unit of work (db/transaction.ts): compose it into the import's transaction. Answers the number of log lines written. */
export function* bookOpeningBalances(_tx: Database, tables: Tables, accounts: readonly OpeningAccount[], { source, time, firstLogId }: OpeningContext) {
	const logs: Tables['logs']['$inferInsert'][] = []
	const holds: Tables['quotaHolds']['$inferInsert'][] = []
	const settled = (requestId: string, userId: number, tokenId: number, limited: boolean, charged: number) => holds.push({
		requestId, userId, tokenId, tokenLimited: limited, amount: charged, charged, state: HOLD_STATE.settled,
		reason: OPENING_REASON, node: 'import', createdAt: time, deadline: time, closedAt: time,
	})
	for (const account of accounts) {
		check(account)
		const { userId, username, balance, usedQuota } = account
		const credit = (quota: number, line: ReturnType<typeof storedLine>) => logs.push({
			...(firstLogId === undefined ? {} : { id: firstLogId + logs.length }),
			userId, username, type: LOG_TYPE.system, quota, createdAt: time, ...line,
		})
		if (balance > 0) credit(balance, storedLine('import.opening_balance', { source }))
		if (usedQuota > 0) credit(usedQuota, storedLine('import.used_before', { source }))
		let rest = usedQuota
		for (const token of account.tokens) {
			if (token.usedQuota === 0) continue
			settled(`${OPENING_REASON}-token-${token.tokenId}`, userId, token.tokenId, token.limited, token.usedQuota)
			rest -= token.usedQuota
		}
		if (rest > 0) settled(`${OPENING_REASON}-user-${userId}`, userId, 0, false, rest)
	}
	yield* insertRows(tables.logs, logs)
	yield* insertRows(tables.quotaHolds, holds)
	return logs.length
}
