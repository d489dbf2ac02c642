/**
 * Request holds (design §4): reserve before the upstream call, then exactly one of settle or void.
 * Each step is one transaction of guarded updates, so balances never go below zero and a hold is
 * closed at most once, on any number of nodes.
 */
import { and, eq, gte, sql } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { rows, type Database, type Tables } from '@/db'
import type { Executor } from './batcher'
import { nowSeconds } from '@/lib/clock'

export const HOLD_STATE = { pending: 'pending', settled: 'settled', voided: 'voided' } as const
/** A request still running after this long has lost its hold to the reconciler. */
export const HOLD_LIFETIME_SECONDS = 3600

export class InsufficientQuotaError extends Error {
	constructor(readonly owner: 'user' | 'token') {
		super(owner === 'user' ? 'insufficient user quota' : 'insufficient token quota')
	}
}

export interface Reservation {
	requestId: string
	userId: number
	/** 0 when the call is not made with a token (the playground). */
	tokenId: number
	/** Unlimited tokens are not debited, but their used quota still grows. */
	tokenLimited: boolean
	amount: number
	/** Which process holds it: the reconciler frees holds of dead processes. */
	node: string
}

/**
 * Takes the hold from the user and, for a limited token, from the token. Never throws half-way:
 * a token that cannot cover the hold gives the user's debit back in the same unit of work, so the
 * batching executor can run many reservations in one transaction.
 */
export async function reserve(ledger: Executor, reservation: Reservation): Promise<void> {
	const { requestId, userId, tokenId, tokenLimited, amount, node } = reservation
	if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('a hold must be a positive whole number of quota')
	const outcome = await ledger.transaction(function* (tx, { users, tokens, quotaHolds }) {
		const [user] = yield* rows(tx.update(users).set({ quota: sql`${users.quota} - ${amount}` })
			.where(and(eq(users.id, userId), gte(users.quota, amount))).returning({ id: users.id }))
		if (!user) return 'user' as const
		if (tokenId && tokenLimited) {
			const [token] = yield* rows(tx.update(tokens).set({ remainQuota: sql`${tokens.remainQuota} - ${amount}` })
				.where(and(eq(tokens.id, tokenId), gte(tokens.remainQuota, amount))).returning({ id: tokens.id }))
			if (!token) {
				yield* rows(tx.update(users).set({ quota: sql`${users.quota} + ${amount}` }).where(eq(users.id, userId)).returning({ id: users.id }))
				return 'token' as const
			}
		}
		yield* rows(tx.insert(quotaHolds).values({
			requestId, userId, tokenId, tokenLimited: tokenId > 0 && tokenLimited, amount, node, deadline: nowSeconds() + HOLD_LIFETIME_SECONDS,
		}).returning({ id: quotaHolds.id }))
		return 'held' as const
	})
	if (outcome !== 'held') throw new InsufficientQuotaError(outcome)
}

/** What the consume log says about a settled call (seed 002 §3). */
export interface Settlement {
	requestId: string
	/** What the call cost by its usage; what is charged may be less if the balance ran out. */
	actual: number
	channelId: number
	log: {
		username: string
		tokenName: string
		modelName: string
		group: string
		promptTokens: number
		completionTokens: number
		useTime: number
		isStream: boolean
		channelName: string
		ip: string
		content: string
		other: Record<string, unknown>
	} | undefined
}

export type SettleOutcome = { settled: false } | { settled: true; charged: number; shortfall: number }

/**
 * Moves a pending hold to settled, returns or takes the difference to the actual cost, counts the
 * call on user, token and channel and writes the consume log, all in one transaction. When the
 * balance cannot cover a cost above the hold, it is charged what it has and the log says so.
 */
export async function settle(ledger: Executor, settlement: Settlement): Promise<SettleOutcome> {
	const { requestId, actual, channelId, log } = settlement
	return ledger.transaction(function* (tx, { users, tokens, channels, quotaHolds, logs }) {
		const [hold] = yield* rows(tx.update(quotaHolds).set({ state: HOLD_STATE.settled, closedAt: nowSeconds() })
			.where(and(eq(quotaHolds.requestId, requestId), eq(quotaHolds.state, HOLD_STATE.pending)))
			.returning({ userId: quotaHolds.userId, tokenId: quotaHolds.tokenId, tokenLimited: quotaHolds.tokenLimited, amount: quotaHolds.amount }))
		if (!hold) return { settled: false } as const
		const { tokenId, tokenLimited } = hold
		let charged = Math.max(0, actual)
		if (charged < hold.amount) {
			const refund = hold.amount - charged
			yield* rows(tx.update(users).set({ quota: sql`${users.quota} + ${refund}` }).where(eq(users.id, hold.userId)).returning({ id: users.id }))
			if (tokenLimited) yield* rows(tx.update(tokens).set({ remainQuota: sql`${tokens.remainQuota} + ${refund}` }).where(eq(tokens.id, tokenId)).returning({ id: tokens.id }))
		} else if (charged > hold.amount) {
			// Take what the user (and a limited token) can still give, never going below zero.
			const [balances] = yield* rows(tx.select({ quota: users.quota }).from(users).where(eq(users.id, hold.userId)))
			let extra = Math.min(charged - hold.amount, Math.max(0, balances?.quota ?? 0))
			if (tokenLimited) {
				const [token] = yield* rows(tx.select({ remain: tokens.remainQuota }).from(tokens).where(eq(tokens.id, tokenId)))
				extra = Math.min(extra, Math.max(0, token?.remain ?? 0))
			}
			if (extra > 0) {
				const [taken] = yield* rows(tx.update(users).set({ quota: sql`${users.quota} - ${extra}` })
					.where(and(eq(users.id, hold.userId), gte(users.quota, extra))).returning({ id: users.id }))
				if (!taken) extra = 0
				else if (tokenLimited) {
					const [tokenTaken] = yield* rows(tx.update(tokens).set({ remainQuota: sql`${tokens.remainQuota} - ${extra}` })
						.where(and(eq(tokens.id, tokenId), gte(tokens.remainQuota, extra))).returning({ id: tokens.id }))
					if (!tokenTaken) {
						yield* rows(tx.update(users).set({ quota: sql`${users.quota} + ${extra}` }).where(eq(users.id, hold.userId)).returning({ id: users.id }))
						extra = 0
					}
				}
			}
			charged = hold.amount + extra
		}
		yield* rows(tx.update(quotaHolds).set({ charged }).where(eq(quotaHolds.requestId, requestId)).returning({ id: quotaHolds.id }))
		yield* rows(tx.update(users).set({ usedQuota: sql`${users.usedQuota} + ${charged}`, requestCount: sql`${users.requestCount} + 1` })
			.where(eq(users.id, hold.userId)).returning({ id: users.id }))
		if (tokenId) {
			yield* rows(tx.update(tokens).set({ usedQuota: sql`${tokens.usedQuota} + ${charged}`, accessedTime: nowSeconds() })
				.where(eq(tokens.id, tokenId)).returning({ id: tokens.id }))
		}
		if (channelId) yield* rows(tx.update(channels).set({ usedQuota: sql`${channels.usedQuota} + ${charged}` }).where(eq(channels.id, channelId)).returning({ id: channels.id }))
		const shortfall = Math.max(0, actual - charged)
		if (log) {
			const other = shortfall > 0 ? { ...log.other, admin_info: { ...(log.other.admin_info as object | undefined), shortfall } } : log.other
			yield* rows(tx.insert(logs).values({
				userId: hold.userId, type: LOG_TYPE.consume, quota: charged, tokenId, channelId, requestId,
				username: log.username, tokenName: log.tokenName, modelName: log.modelName, group: log.group,
				promptTokens: log.promptTokens, completionTokens: log.completionTokens, useTime: log.useTime, isStream: log.isStream,
				channelName: log.channelName, ip: log.ip, content: log.content, other: JSON.stringify(other),
			}).returning({ id: logs.id }))
		}
		return { settled: true, charged, shortfall } as const
	})
}

/** Returns a pending hold in full: the call failed before producing anything billable. */
export async function voidHold(ledger: Executor, requestId: string, reason: string): Promise<boolean> {
	return ledger.transaction(function* (tx, tables) {
		const [hold] = yield* rows(tx.update(tables.quotaHolds).set({ state: HOLD_STATE.voided, reason, closedAt: nowSeconds() })
			.where(and(eq(tables.quotaHolds.requestId, requestId), eq(tables.quotaHolds.state, HOLD_STATE.pending)))
			.returning({ userId: tables.quotaHolds.userId, tokenId: tables.quotaHolds.tokenId, tokenLimited: tables.quotaHolds.tokenLimited, amount: tables.quotaHolds.amount }))
		if (!hold) return false
		yield* refundHold(tx, tables, hold)
		return true
	})
}

type HoldRow = { userId: number; tokenId: number; tokenLimited: boolean; amount: number }

/** A unit of work that gives a hold's amount back to its user and limited token. */
export function* refundHold(tx: Database, tables: Tables, hold: HoldRow) {
	const { users, tokens } = tables
	yield* rows(tx.update(users).set({ quota: sql`${users.quota} + ${hold.amount}` }).where(eq(users.id, hold.userId)).returning({ id: users.id }))
	if (hold.tokenLimited) yield* rows(tx.update(tokens).set({ remainQuota: sql`${tokens.remainQuota} + ${hold.amount}` }).where(eq(tokens.id, hold.tokenId)).returning({ id: tokens.id }))
}
