/**
 * Request holds: reserve before the upstream call, then exactly one of settle or void. Each step
 * is one transaction of guarded updates, so balances never go below zero and a hold is closed at
 * most once, on any number of nodes.
 *
 * A hold is taken from its funding sources in order: the caller's subscriptions that cover the
 * model (plan-holds.ts: the hold must fit every one of a subscription's windows), then the wallet.
 * A limited token's remaining quota is a limit on whatever pays, checked as for the wallet, and so
 * are a token's spend windows (token-windows.ts). The hold row records the source
 * (`subscription_id`, 0 for the wallet, and the window `periods`) and the token's window periods
 * (`token_periods`), so settle and void give back to where the hold came from.
 */
import { LOG_TYPE } from '@shared/log'
import { execute, query, type Work } from '@/db'
import { storableFields } from '@/db/stored-text'
import type { Executor } from './batcher'
import type { WalletSettlement } from './wallet-batch'
import { nowSeconds } from '@/lib/clock'
import { releasePlanHold, settlePlanHold, takeFromPlan, takeMoreFromPlan, type PlanSource, type PlanWindow } from './plan-holds'
import { exhaustedWindow, TokenWindowExhaustedError, tokenPeriods } from './token-windows'

export const HOLD_STATE = { pending: 'pending', settled: 'settled', voided: 'voided' } as const
/** A request still running after this long has lost its hold to the reconciler. */
export const HOLD_LIFETIME_SECONDS = 3600

export class InsufficientQuotaError extends Error {
	constructor(readonly owner: 'user' | 'token') {
		super(owner === 'user' ? 'insufficient user quota' : 'insufficient token quota')
	}
}

interface Reservation {
	requestId: string
	userId: number
	/** 0 when the call is not made with a token (the playground). */
	tokenId: number
	/** Unlimited tokens are not debited, but their used quota still grows. */
	tokenLimited: boolean
	amount: number
	/** Which process holds it: the reconciler frees holds of dead processes. */
	node: string
	/** The caller's subscriptions covering the call's model, in the order they are tried before the wallet. */
	sources?: readonly PlanSource[]
	/** The token's spend windows: the hold must fit each, whatever pays. */
	tokenWindows?: readonly PlanWindow[]
}

/*
 * These units of work are the relay's hot path, so they are raw SQL (db/transaction.ts `query`, and
 * `execute` where only the number of changed rows matters): building them with the query builder
 * cost more than running them.
 */
export const TAKE_USER = 'UPDATE users SET quota = quota - $1 WHERE id = $2 AND quota >= $1'
const TAKE_TOKEN = 'UPDATE tokens SET remain_quota = remain_quota - $1 WHERE id = $2 AND remain_quota >= $1'
const GIVE_USER = 'UPDATE users SET quota = quota + $1 WHERE id = $2'
const GIVE_TOKEN = 'UPDATE tokens SET remain_quota = remain_quota + $1 WHERE id = $2'
export const INSERT_HOLD = 'INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, node, deadline) VALUES ($1, $2, $3, $4, $5, $6, $7)'
const INSERT_SOURCED_HOLD = `INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, node, deadline, subscription_id, periods, token_periods)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`
const CLOSE_HOLD = 'UPDATE quota_holds SET state = $2, reason = $3, closed_at = $4 WHERE request_id = $1 AND state = \'pending\' RETURNING user_id, token_id, token_limited, amount, subscription_id, periods, token_periods'
/** Settles with the charge capped at the hold; a cost above it is taken and recorded afterwards. */
const SETTLE_HOLD = `UPDATE quota_holds SET state = 'settled', closed_at = $2, charged = CASE WHEN amount >= $3 THEN $3 ELSE amount END
	WHERE request_id = $1 AND state = 'pending' RETURNING user_id, token_id, token_limited, amount, subscription_id, periods, token_periods`
const READ_USER_QUOTA = 'SELECT quota FROM users WHERE id = $1'
const READ_TOKEN_REMAIN = 'SELECT remain_quota FROM tokens WHERE id = $1'
const RECORD_CHARGE = 'UPDATE quota_holds SET charged = $1 WHERE request_id = $2'
/** Returns what the hold held beyond the charge, and counts the call: one statement per row. */
const COUNT_USER = 'UPDATE users SET quota = quota + $3, used_quota = used_quota + $1, request_count = request_count + 1 WHERE id = $2'
/**
 * The same, answering the balance, for a settle asked for it: on Postgres RETURNING costs nothing
 * while another statement costs a round trip; on SQLite RETURNING costs ~3 µs, a read after it ~0.7.
 */
const COUNT_USER_RETURNING = `${COUNT_USER} RETURNING quota`
const COUNT_TOKEN = 'UPDATE tokens SET remain_quota = remain_quota + $4, used_quota = used_quota + $1, accessed_time = $2 WHERE id = $3'
const COUNT_CHANNEL = 'UPDATE channels SET used_quota = used_quota + $1 WHERE id = $2'
const INSERT_CONSUME_LOG = `INSERT INTO logs (user_id, type, quota, token_id, channel_id, request_id, username, token_name, model_name, "group",
	prompt_tokens, completion_tokens, use_time, is_stream, channel_name, ip, content, other, cost, subscription_id)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`

type ClosedHold = { user_id: number; token_id: number; token_limited: boolean | number; amount: number; subscription_id: number; periods: string; token_periods: string | null }

/**
 * Takes the hold from the first subscription among `sources` with room in every window, else
 * from the user's wallet, and, for a limited token, from the token. Answers the subscription that
 * pays (0: the wallet). Never throws half-way: a source that cannot cover the hold gives back what
 * it took in the same unit of work, so the batching executor can run many reservations in one
 * transaction. Throws `InsufficientQuotaError`, or `TokenWindowExhaustedError` when a window of
 * the token lacks room (nothing taken either way).
 */
export async function reserve(ledger: Executor, reservation: Reservation): Promise<number> {
	const { requestId, userId, tokenId, tokenLimited, amount, node, sources } = reservation
	if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('a hold must be a positive whole number of quota')
	const limited = tokenId > 0 && tokenLimited
	const windows = tokenId > 0 && reservation.tokenWindows?.length ? reservation.tokenWindows : undefined
	// A token with spend windows is held the guarded way below: its periods are rows of their own.
	const walletOnly = !sources?.length && !windows
	// A busy wallet's calls are held from this node's allowance of it, in memory (allowances.ts).
	if (ledger.allowances && walletOnly && !limited && await ledger.allowances.reserve({ requestId, userId, tokenId, amount })) return 0
	// The wallet's holds of calls in flight are taken together where the executor can (Postgres):
	// what the batch did not take is taken below, one transaction for this hold alone.
	if (ledger.walletHolds && walletOnly) {
		const deadline = nowSeconds() + HOLD_LIFETIME_SECONDS
		if (await ledger.walletHolds.reserve({ requestId, userId, tokenId, limited, amount, node, deadline })) return 0
	}
	const outcome = await ledger.transaction(function* () {
		const now = nowSeconds()
		let windowPeriods = ''
		if (windows) {
			const taken = yield* tokenPeriods.take(tokenId, windows, userId, amount, now)
			if (taken === undefined) return yield* exhaustedWindow(tokenId, windows, amount, now)
			windowPeriods = taken
		}
		/** A refusal after the token's windows took the hold gives it back to them. */
		function* refuse(owner: 'user' | 'token') {
			if (windowPeriods) yield* tokenPeriods.release(windowPeriods, amount)
			return owner
		}
		for (const source of sources ?? []) {
			const periods = yield* takeFromPlan(source, userId, amount, now)
			if (periods === undefined) continue
			if (limited && (yield* execute(TAKE_TOKEN, [amount, tokenId])) === 0) {
				yield* releasePlanHold(periods, amount)
				return yield* refuse('token')
			}
			yield* execute(INSERT_SOURCED_HOLD, [requestId, userId, tokenId, limited, amount, node, now + HOLD_LIFETIME_SECONDS, source.subscriptionId, periods, windowPeriods])
			return source.subscriptionId
		}
		if ((yield* execute(TAKE_USER, [amount, userId])) === 0) return yield* refuse('user')
		if (limited && (yield* execute(TAKE_TOKEN, [amount, tokenId])) === 0) {
			yield* execute(GIVE_USER, [amount, userId])
			return yield* refuse('token')
		}
		if (windowPeriods) yield* execute(INSERT_SOURCED_HOLD, [requestId, userId, tokenId, limited, amount, node, now + HOLD_LIFETIME_SECONDS, 0, '', windowPeriods])
		else yield* execute(INSERT_HOLD, [requestId, userId, tokenId, limited, amount, node, now + HOLD_LIFETIME_SECONDS])
		return 0
	})
	if (typeof outcome === 'string') throw new InsufficientQuotaError(outcome)
	if (typeof outcome === 'object') throw new TokenWindowExhaustedError(outcome)
	return outcome
}

/** What the consume log says about a settled call (docs/specification/logs-and-dashboard.md#log-lines). */
export interface Settlement {
	requestId: string
	/** What the call cost by its usage; what is charged may be less if the balance ran out. */
	actual: number
	channelId: number
	log: {
		/** The line's type: a call's consumption unless said otherwise (an answer from the response cache). */
		type?: typeof LOG_TYPE.consume | typeof LOG_TYPE.cacheHit
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
	/** What the call cost the operator (quota), written beside the charge in the log; undefined: unknown. */
	cost?: number
	/** Also answer the user's balance once settled (the low-quota reminder): a statement more on SQLite. */
	readBalance?: boolean
	/**
	 * What the hold took from the wallet, when the caller knows it held the wallet (not a
	 * subscription): a charge within it may then be settled with other calls in flight (Postgres).
	 */
	heldFromWallet?: number
}

/**
 * `balance`: the user's quota once the call is settled, when `readBalance` asked for it (a call a
 * subscription paid leaves it as it was). `subscriptionId`: the subscription that paid, absent for the wallet.
 */
export type SettleOutcome = { settled: false } | { settled: true; charged: number; shortfall: number; balance?: number; subscriptionId?: number }

/**
 * Moves a pending hold to settled, returns or takes the difference to the actual cost, counts the
 * call on user, token and channel and writes the consume log, all in one transaction. When the
 * balance cannot cover a cost above the hold, it is charged what it has and the log says so.
 */
export async function settle(ledger: Executor, settlement: Settlement): Promise<SettleOutcome> {
	if (ledger.allowances?.holds(settlement.requestId)) return ledger.allowances.settle(settlement)
	const { heldFromWallet } = settlement
	const actual = Math.max(0, settlement.actual)
	if (ledger.walletHolds && heldFromWallet !== undefined && actual <= heldFromWallet) {
		const settled = await ledger.walletHolds.settle({
			requestId: settlement.requestId, actual, channelId: settlement.channelId,
			log: batchedLog(settlement, 0),
		})
		if (settled) return { settled: true, charged: settled.charged, shortfall: 0, balance: settlement.readBalance ? settled.balance : undefined }
	}
	return ledger.transaction(() => settleWork(settlement, ledger.dialect))
}

/** The unit of work of `settle`, to compose into a larger one (a task's end and its charge, atomically). */
export function* settleWork(settlement: Settlement, dialect: Executor['dialect']): ReturnType<Work<SettleOutcome>> {
	const { requestId, actual, channelId, readBalance = false } = settlement
	const returning = readBalance && dialect === 'pg'
	const now = nowSeconds()
	const [hold] = yield* query<ClosedHold>(SETTLE_HOLD, [requestId, now, Math.max(0, actual)])
	if (!hold) return { settled: false } as const
	const userId = Number(hold.user_id)
	const tokenId = Number(hold.token_id)
	const tokenLimited = Boolean(hold.token_limited)
	const held = Number(hold.amount)
	const subscriptionId = Number(hold.subscription_id ?? 0)
	const windowPeriods = hold.token_periods ?? ''
	let charged = Math.max(0, actual)
	if (charged > held) {
		// Take what the source (and a limited token, and the token's windows) can still give, never going below zero.
		let extra = charged - held
		if (tokenLimited) {
			const [token] = yield* query<{ remain_quota: number }>(READ_TOKEN_REMAIN, [tokenId])
			extra = Math.min(extra, Math.max(0, Number(token?.remain_quota ?? 0)))
		}
		if (windowPeriods) extra = yield* tokenPeriods.takeMore(windowPeriods, extra)
		const wanted = extra
		extra = extra <= 0 ? 0 : subscriptionId ? yield* takeMoreFromPlan(hold.periods, extra) : yield* takeMoreFromWallet(userId, extra)
		if (extra > 0 && tokenLimited && (yield* execute(TAKE_TOKEN, [extra, tokenId])) === 0) {
			if (subscriptionId) yield* releasePlanHold(hold.periods, extra)
			else yield* execute(GIVE_USER, [extra, userId])
			extra = 0
		}
		// The windows give back what they took beyond what the source could pay.
		if (windowPeriods && wanted > extra) yield* tokenPeriods.release(windowPeriods, wanted - extra)
		charged = held + extra
		yield* execute(RECORD_CHARGE, [charged, requestId])
	}
	const refund = held - Math.min(charged, held)
	// The wallet gets back what it held beyond the charge; a subscription's periods get theirs back.
	const walletRefund = subscriptionId ? 0 : refund
	if (subscriptionId) yield* settlePlanHold(hold.periods, Math.max(held, charged), charged)
	if (windowPeriods) yield* tokenPeriods.settle(windowPeriods, Math.max(held, charged), charged)
	let balance: number | undefined
	if (returning) {
		const [user] = yield* query<{ quota: number }>(COUNT_USER_RETURNING, [charged, userId, walletRefund])
		balance = Number(user?.quota ?? 0)
	} else {
		yield* execute(COUNT_USER, [charged, userId, walletRefund])
		if (readBalance) balance = Number((yield* query<{ quota: number }>(READ_USER_QUOTA, [userId]))[0]?.quota ?? 0)
	}
	if (tokenId) yield* execute(COUNT_TOKEN, [charged, now, tokenId, tokenLimited ? refund : 0])
	if (channelId) yield* execute(COUNT_CHANNEL, [charged, channelId])
	const shortfall = Math.max(0, actual - charged)
	if (settlement.log) {
		// Its texts storable (db/stored-text.ts): a NUL would fail the settle on Postgres, and the call would go unbilled.
		const log = storableFields(settlement.log)
		const other = loggedOther(log.other, shortfall, subscriptionId)
		yield* execute(INSERT_CONSUME_LOG, [
			userId, log.type ?? LOG_TYPE.consume, charged, tokenId, channelId, requestId, log.username, log.tokenName, log.modelName, log.group,
			log.promptTokens, log.completionTokens, log.useTime, log.isStream, log.channelName, log.ip, log.content, JSON.stringify(other),
			settlement.cost ?? null, subscriptionId,
		])
	}
	return { settled: true, charged, shortfall, balance, ...(subscriptionId ? { subscriptionId } : {}) } as const
}

/** A consume log's `other`, with what the balance could not cover (for admins) and the subscription that paid. */
function loggedOther(other: Record<string, unknown>, shortfall: number, subscriptionId = 0): Record<string, unknown> {
	const withShortfall = shortfall > 0 ? { ...other, admin_info: { ...(other.admin_info as object | undefined), shortfall } } : other
	return subscriptionId ? { ...withShortfall, subscription_id: subscriptionId } : withShortfall
}

/**
 * The consume log line as a batch statement takes it (wallet-batch.ts): its `other` as JSON text, with the shortfall,
 * and its texts storable (db/stored-text.ts) — a NUL or a lone surrogate would fail the statement, and with it the whole batch.
 */
export function batchedLog({ log, cost }: Settlement, shortfall: number): WalletSettlement['log'] {
	return log && storableFields({ ...log, type: log.type ?? LOG_TYPE.consume, other: JSON.stringify(loggedOther(log.other, shortfall)), cost: cost ?? null })
}

/** Takes up to `extra` more from the wallet, never below zero; answers what it took. */
function* takeMoreFromWallet(userId: number, extra: number) {
	const [balance] = yield* query<{ quota: number }>(READ_USER_QUOTA, [userId])
	const room = Math.min(extra, Math.max(0, Number(balance?.quota ?? 0)))
	if (room <= 0) return 0
	return (yield* execute(TAKE_USER, [room, userId])) === 0 ? 0 : room
}

/**
 * A unit of work that closes a pending hold as voided and gives its amount back to where it came
 * from (the wallet or the subscription's periods) and to a limited token; answers the hold, or
 * undefined when it was no longer pending.
 */
export function* voidHoldWork(requestId: string, reason: string) {
	const [hold] = yield* query<ClosedHold>(CLOSE_HOLD, [requestId, HOLD_STATE.voided, reason, nowSeconds()])
	if (!hold) return undefined
	const subscriptionId = Number(hold.subscription_id ?? 0)
	if (subscriptionId) yield* releasePlanHold(hold.periods, Number(hold.amount))
	else yield* execute(GIVE_USER, [Number(hold.amount), Number(hold.user_id)])
	if (hold.token_periods) yield* tokenPeriods.release(hold.token_periods, Number(hold.amount))
	if (hold.token_limited) yield* execute(GIVE_TOKEN, [Number(hold.amount), Number(hold.token_id)])
	return { userId: Number(hold.user_id), tokenId: Number(hold.token_id), amount: Number(hold.amount), subscriptionId }
}

/** A call whose hold is returned in full although an upstream answered it, and its consume line (quota 0) saying why. */
export interface Release {
	requestId: string
	/** The hold's `reason`. */
	reason: string
	channelId: number
	/** The consume line, as a settle writes it; undefined: none (`LogConsumeEnabled` off). */
	log: Settlement['log']
	/** What the call cost the operator, written beside the 0 charged. */
	cost?: number
}

/**
 * Voids a pending hold and writes the call's consume line with 0 quota, in one transaction: a call
 * the billing rules do not charge (an empty answer, relay/stages/empty-output.ts). The user's and
 * token's used quota and request count stay as they were, as for any voided hold. Answers whether
 * the hold was still pending (nothing is written when it was not).
 */
export async function releaseHold(ledger: Executor, release: Release): Promise<boolean> {
	await ledger.allowances?.materialise(release.requestId)
	return ledger.transaction(function* () {
		const hold = yield* voidHoldWork(release.requestId, release.reason)
		if (!hold) return false
		if (release.log) {
			const log = storableFields(release.log)
			yield* execute(INSERT_CONSUME_LOG, [
				hold.userId, log.type ?? LOG_TYPE.consume, 0, hold.tokenId, release.channelId, release.requestId, log.username, log.tokenName, log.modelName, log.group,
				log.promptTokens, log.completionTokens, log.useTime, log.isStream, log.channelName, log.ip, log.content,
				JSON.stringify(loggedOther(log.other, 0, hold.subscriptionId)), release.cost ?? null, hold.subscriptionId,
			])
		}
		return true
	})
}

/** Returns a pending hold in full: the call failed before producing anything billable. */
export async function voidHold(ledger: Executor, requestId: string, reason: string): Promise<boolean> {
	if (ledger.allowances?.release(requestId)) return true
	return (await ledger.transaction(() => voidHoldWork(requestId, reason))) !== undefined
}

/**
 * Makes the call's hold a hold row of its own when it is held in an allowance's memory: before a
 * unit of work of the caller's own settles or adopts it (a task's hand-over, a refused task).
 */
export async function materialiseHold(ledger: Executor, requestId: string): Promise<void> {
	await ledger.allowances?.materialise(requestId)
}
