/**
 * The quota ledger (docs/architecture.md#the-ledger): the only code that changes a balance. Every change is one
 * transaction that moves the balance with a guarded update and writes the log row that explains
 * it, so `quota + pending holds + settled charges − credits = initial` holds for every user.
 * Requests go through holds (holds.ts: reserve, then settle or void).
 *
 * Credits keep "balance + pending holds" at or below MAX_QUOTA (@shared/quota-limit). Holds only
 * move quota between the two or spend it, so the balance stays within MAX_QUOTA whatever is in
 * flight, and concurrent credits cannot pass it together: the guard is in the update itself.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm'
import { LOG_TYPE, type LogType } from '@shared/log'
import { MAX_QUOTA, QUOTA_LIMIT_MESSAGES } from '@shared/quota-limit'
import { execute, query, rows, type Database, type Store, type Tables } from '@/db'
import { InsufficientQuotaError } from './holds'
import { inEnglish } from '@shared/messages'

interface Credit {
	userId: number
	/** Positive adds quota, negative takes it away (an admin correction); never below zero. */
	amount: number
	type: Extract<LogType, typeof LOG_TYPE.topUp | typeof LOG_TYPE.manage | typeof LOG_TYPE.system>
	content: string
	/** The log line's `other` details (an admin's credit names the admin there). */
	other?: Record<string, unknown>
}

/** A credit would lift the balance (with what its pending holds took) past MAX_QUOTA; nothing changed. */
export class BalanceLimitError extends Error {
	constructor() {
		super(inEnglish(QUOTA_LIMIT_MESSAGES.balanceLimit))
	}
}

/**
 * What the user's pending holds took from the balance. Pending holds are the calls in flight:
 * few, and found through the partial index on pending holds without reading settled ones.
 */
const pendingOfUser = (userParameter: string) =>
	`COALESCE((SELECT SUM(amount) FROM quota_holds WHERE user_id = ${userParameter} AND state = 'pending'), 0)`

/**
 * Takes the user's row lock before the guarded credit. On Postgres each statement reads what was
 * committed when it started; with the lock held, no reserve, settle or void of this user can be
 * half-way, so the credit's count of pending holds is exact. (SQLite runs one writer at a time.)
 */
const LOCK_USER = 'UPDATE users SET quota = quota WHERE id = $1'
const CREDIT_USER = `UPDATE users SET quota = quota + $1 WHERE id = $2 AND quota + ${pendingOfUser('$2')} <= $3 RETURNING username, quota`
const DEBIT_USER = 'UPDATE users SET quota = quota + $1 WHERE id = $2 AND quota >= $3 RETURNING username, quota'
const READ_ROOM = `SELECT quota + ${pendingOfUser('$1')} AS taken FROM users WHERE id = $1`
/** Takes the user's row lock and answers the balance as it is under it (Postgres: the newest committed one). */
const LOCK_AND_READ_USER = 'UPDATE users SET quota = quota WHERE id = $1 RETURNING quota'

/**
 * A unit of work (see db/transaction.ts) that applies a credit and logs it; compose it into a
 * larger unit with `yield*` when the credit must be atomic with other changes. Throws
 * `BalanceLimitError` for a credit that does not fit under MAX_QUOTA and `InsufficientQuotaError`
 * for a debit the balance cannot cover, before anything is written.
 */
export function* applyCredit(tx: Database, tables: Tables, { userId, amount, type, content, other }: Credit) {
	if (!Number.isSafeInteger(amount)) throw new Error('a credit must be a whole number of quota')
	if (amount > MAX_QUOTA) throw new BalanceLimitError()
	let user: { username: string; quota: number } | undefined
	if (amount > 0) {
		if ((yield* execute(LOCK_USER, [userId])) === 0) throw new Error('the user to credit does not exist')
		;[user] = yield* query<{ username: string; quota: number }>(CREDIT_USER, [amount, userId, MAX_QUOTA - amount])
		if (!user) throw new BalanceLimitError()
	} else {
		;[user] = yield* query<{ username: string; quota: number }>(DEBIT_USER, [amount, userId, -amount])
		if (!user) throw new InsufficientQuotaError('user')
	}
	const { logs } = tables
	yield* rows(tx.insert(logs).values({ userId, username: user.username, type, content, quota: amount, other: other ? JSON.stringify(other) : '' }).returning({ id: logs.id }))
	return Number(user.quota)
}

interface BalanceSetting {
	userId: number
	/** The balance wanted: at least zero. */
	quota: number
	type: Credit['type']
	/** The credit's log line, which may name the balance it replaces. */
	line: (from: number) => Pick<Credit, 'content' | 'other'>
}

/**
 * A unit of work that sets the user's balance to `quota` with a logged credit of the difference
 * (an admin's edit). The balance the difference is taken from is read under the user's row lock,
 * in the credit's own transaction: calls reserving and settling meanwhile, a busy wallet's
 * allowance and other edits wait for it, so the balance is `quota` when it commits and the line
 * says what it replaced. Answers the balance before, or undefined for an unknown user (nothing
 * changed). Throws `BalanceLimitError` as `applyCredit` does.
 */
export function* setBalance(tx: Database, tables: Tables, { userId, quota, type, line }: BalanceSetting) {
	const [locked] = yield* query<{ quota: number | string }>(LOCK_AND_READ_USER, [userId])
	if (!locked) return undefined
	const from = Number(locked.quota)
	if (quota !== from) yield* applyCredit(tx, tables, { userId, amount: quota - from, type, ...line(from) })
	return from
}

/**
 * How much quota a credit to the user could add now (0 for an unknown user): what lets the wallet
 * refuse a payment whose quota could not be credited. A credit still checks for itself.
 */
export async function creditRoom(store: Pick<Store, 'read'>, userId: number): Promise<number> {
	const [row] = await store.read<{ taken: number | string }>(READ_ROOM, [userId])
	return row ? Math.max(0, MAX_QUOTA - Number(row.taken)) : 0
}

/**
 * The condition under which a token's remaining quota may be set to `remain`: with what the
 * token's pending holds took (they come back to it when voided or settled below the hold), it
 * stays within MAX_QUOTA. Put it in the update's WHERE. A token's quota is a limit, not money: an
 * edit racing a reserve on Postgres may miss that one in-flight hold, which still keeps the value
 * far from 2^53 (a hold is at most the owner's balance).
 */
export function tokenRemainFits(tables: Tables, tokenId: number, remain: number): SQL {
	const { quotaHolds } = tables
	const pending = sql`coalesce((select sum(${quotaHolds.amount}) from ${quotaHolds} where ${and(
		eq(quotaHolds.tokenId, tokenId), eq(quotaHolds.tokenLimited, true), eq(quotaHolds.state, 'pending'),
	)}), 0)`
	return sql`${pending} <= ${MAX_QUOTA - remain}`
}
