/**
 * The quota ledger (design §4): the only code that changes a balance. Every change is one
 * transaction that moves the balance with a guarded update and writes the log row that explains
 * it, so `quota + pending holds + settled charges − credits = initial` holds for every user.
 * Requests go through holds (holds.ts: reserve, then settle or void).
 */
import { and, eq, gte, sql } from 'drizzle-orm'
import { LOG_TYPE, type LogType } from '@shared/log'
import { rows, type Database, type Tables } from '@/db'
import { InsufficientQuotaError } from './holds'

export interface Credit {
	userId: number
	/** Positive adds quota, negative takes it away (an admin correction); never below zero. */
	amount: number
	type: Extract<LogType, typeof LOG_TYPE.topUp | typeof LOG_TYPE.manage | typeof LOG_TYPE.system>
	content: string
}

/**
 * A unit of work (see db/transaction.ts) that applies a credit and logs it; compose it into a
 * larger unit with `yield*` when the credit must be atomic with other changes.
 */
export function* applyCredit(tx: Database, tables: Tables, { userId, amount, type, content }: Credit) {
	if (!Number.isSafeInteger(amount)) throw new Error('a credit must be a whole number of quota')
	const { users, logs } = tables
	const [user] = yield* rows(tx.update(users)
		.set({ quota: sql`${users.quota} + ${amount}` })
		.where(and(eq(users.id, userId), gte(users.quota, -amount)))
		.returning({ username: users.username, quota: users.quota }))
	if (!user) throw new InsufficientQuotaError('user')
	yield* rows(tx.insert(logs).values({ userId, username: user.username, type, content, quota: amount }).returning({ id: logs.id }))
	return user.quota
}
