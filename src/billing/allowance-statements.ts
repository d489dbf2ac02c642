/**
 * The database side of allowances (allowances.ts; docs/architecture.md#allowances). An allowance is
 * a pending wallet hold of its own (`request_id` `allowance/<node>/<n>`, token 0): taking a slice
 * moves quota from `users.quota` into it, a call charged from it moves the charge from its amount
 * into a settled hold of the call, and giving it back voids it like any hold. So the ledger's
 * invariant and `ferry audit` include allowances without a rule of their own, and a crashed node's
 * allowance is returned by the reconciler exactly once (the void is a guarded state change), once
 * its deadline — the lease its node keeps renewing — has passed.
 */
import { execute, query, type Dialect, type Work } from '@/db'
import { nowSeconds } from '@/lib/clock'
import { HOLD_LIFETIME_SECONDS, INSERT_HOLD, type SettleOutcome, type Settlement, settleWork, TAKE_USER } from './holds'
import type { WalletSettlement } from './wallet-batch'

const ALLOWANCE_PREFIX = 'allowance/'

/** Whether a hold's request id names an allowance rather than a call. */
export const isAllowance = (requestId: string) => requestId.startsWith(ALLOWANCE_PREFIX)
export const allowanceId = (node: string, serial: number) => `${ALLOWANCE_PREFIX}${node}/${serial}`

const READ_BALANCE = 'SELECT quota FROM users WHERE id = $1'
const INSERT_ALLOWANCE = 'INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, node, deadline) VALUES ($1, $2, 0, false, $3, $4, $5)'
/** Renews the lease; answers (by the changed count) whether the allowance is still this node's. */
const RENEW = 'UPDATE quota_holds SET deadline = $2 WHERE request_id = $1 AND state = \'pending\''
const ADD = 'UPDATE quota_holds SET amount = amount + $2, deadline = $3 WHERE request_id = $1 AND state = \'pending\''
/** Moves a call's hold out of the allowance: guarded, so a returned allowance gives nothing twice. */
const SPEND = 'UPDATE quota_holds SET amount = amount - $2 WHERE request_id = $1 AND state = \'pending\' AND amount >= $2'

export interface Slice {
	allowanceId: string
	userId: number
	/** What the node would like: about a second of the user's holds on it. */
	wanted: number
	/** Less than this is not worth an allowance: the calls go the guarded way. */
	least: number
	/** The slice takes at most this share of the balance (1/share). */
	share: number
	node: string
	deadline: number
	/** Whether the allowance exists (a top-up) or is to be created. */
	existing: boolean
}

/**
 * Moves a slice of the wallet into the allowance. Answers the quota moved (0: the balance is too
 * small to slice), or -1 when an existing allowance is no longer pending (returned by a reconciler
 * while its node thought it alive). The slice is sized from a read of the balance; the guard that
 * matters, `quota >= slice`, is in the update.
 */
export function takeSliceWork(slice: Slice): Work<number> {
	return function* () {
		if (slice.existing && (yield* execute(RENEW, [slice.allowanceId, slice.deadline])) === 0) return -1
		const [user] = yield* query<{ quota: number }>(READ_BALANCE, [slice.userId])
		const amount = Math.min(slice.wanted, Math.floor(Number(user?.quota ?? 0) / slice.share))
		if (amount < slice.least || (yield* execute(TAKE_USER, [amount, slice.userId])) === 0) return 0
		if (slice.existing) yield* execute(ADD, [slice.allowanceId, amount, slice.deadline])
		else yield* execute(INSERT_ALLOWANCE, [slice.allowanceId, slice.userId, amount, slice.node, slice.deadline])
		return amount
	}
}

export function renewWork(allowanceId: string, deadline: number): Work<boolean> {
	return function* () {
		return (yield* execute(RENEW, [allowanceId, deadline])) > 0
	}
}

/** A call's hold held in memory, made a hold row of its own (a task adopts it, or a settle of the caller's own needs it). */
export interface Materialised {
	allowanceId: string | undefined
	requestId: string
	userId: number
	tokenId: number
	amount: number
	node: string
}

/**
 * Moves the call's hold from the allowance into a pending hold row of the call. When the allowance
 * is gone (returned), the hold is taken from the wallet again, guarded; failing that the row holds
 * 0 and its settle takes what the wallet has. Answers whether the allowance paid.
 */
export function materialiseWork({ allowanceId: from, requestId, userId, tokenId, amount, node }: Materialised): Work<boolean> {
	return function* () {
		const spent = from !== undefined && (yield* execute(SPEND, [from, amount])) > 0
		const held = spent || (yield* execute(TAKE_USER, [amount, userId])) > 0 ? amount : 0
		yield* execute(INSERT_HOLD, [requestId, userId, tokenId, false, held, node, nowSeconds() + HOLD_LIFETIME_SECONDS])
		return spent
	}
}

/**
 * Settles a call whose hold was in an allowance that is gone: a hold row of 0 is recorded and
 * settled at once, so the charge is taken from the wallet, never below zero, like any charge above
 * its hold (holds.ts `settleWork`). The request id's unique index makes a second attempt fail.
 */
export function settleWithoutHoldWork(settlement: Settlement, { userId, tokenId, node }: { userId: number; tokenId: number; node: string }, dialect: Dialect): Work<SettleOutcome> {
	return function* () {
		yield* execute(INSERT_HOLD, [settlement.requestId, userId, tokenId, false, 0, node, nowSeconds() + HOLD_LIFETIME_SECONDS])
		return yield* settleWork(settlement, dialect)
	}
}

/** A call charged from an allowance: `charged` is within what the allowance held for it. */
export interface AllowanceCharge {
	requestId: string
	allowanceId: string
	userId: number
	tokenId: number
	held: number
	charged: number
	channelId: number
	log: WalletSettlement['log']
}

/**
 * Postgres: the charges of a batch in one statement. Each allowance gives what its calls were
 * charged (guarded: still pending, enough left) and its lease is renewed; a settled hold row per
 * call records the charge; user (used quota, call count — the balance moved when the slice was
 * taken), token and channel counters are folded; the consume logs in one insert. Rows are locked
 * in the order the wallet batches lock them (holds, then users, tokens, channels, each by id), so
 * batches of several nodes wait for each other instead of deadlocking. The charges of an
 * allowance that is gone are not applied, and are answered as such.
 */
const CHARGE_MANY = `WITH input AS (
	SELECT * FROM json_to_recordset(CAST($1 AS text)::json) AS i(
		request_id text, allowance_id text, user_id bigint, token_id bigint, held bigint, charged bigint, channel_id bigint, logged boolean,
		log_type bigint, username text, token_name text, model_name text, "group" text, prompt_tokens bigint, completion_tokens bigint,
		use_time bigint, is_stream boolean, channel_name text, ip text, content text, other text, cost bigint)
), spent AS (
	UPDATE quota_holds SET amount = quota_holds.amount - wanted.total, deadline = $4
	FROM (SELECT allowance_id, SUM(charged) AS total FROM input GROUP BY allowance_id ORDER BY allowance_id) wanted
	WHERE quota_holds.request_id = wanted.allowance_id AND quota_holds.state = 'pending' AND quota_holds.amount >= wanted.total
	RETURNING quota_holds.request_id
), done AS (
	SELECT * FROM input WHERE allowance_id IN (SELECT request_id FROM spent)
), recorded AS (
	INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, charged, state, node, deadline, closed_at)
	SELECT request_id, user_id, token_id, false, held, charged, 'settled', $3, $2, $2 FROM done
), users_locked AS (
	SELECT id FROM users WHERE id IN (SELECT user_id FROM done) ORDER BY id FOR UPDATE
), users_counted AS (
	UPDATE users SET used_quota = users.used_quota + counted.charged, request_count = users.request_count + counted.calls
	FROM (SELECT user_id, SUM(charged) AS charged, COUNT(*) AS calls FROM done WHERE user_id IN (SELECT id FROM users_locked) GROUP BY user_id) counted
	WHERE users.id = counted.user_id
	RETURNING users.id, users.quota
), tokens_locked AS (
	SELECT id FROM tokens WHERE id IN (SELECT token_id FROM done) AND (SELECT COUNT(*) FROM users_counted) >= 0 ORDER BY id FOR UPDATE
), tokens_counted AS (
	UPDATE tokens SET used_quota = tokens.used_quota + counted.charged, accessed_time = $2
	FROM (SELECT token_id, SUM(charged) AS charged FROM done WHERE token_id IN (SELECT id FROM tokens_locked) GROUP BY token_id) counted
	WHERE tokens.id = counted.token_id
	RETURNING tokens.id
), channels_locked AS (
	SELECT id FROM channels WHERE id IN (SELECT channel_id FROM done) AND (SELECT COUNT(*) FROM tokens_counted) >= 0 ORDER BY id FOR UPDATE
), channels_counted AS (
	UPDATE channels SET used_quota = channels.used_quota + counted.charged
	FROM (SELECT channel_id, SUM(charged) AS charged FROM done WHERE channel_id IN (SELECT id FROM channels_locked) GROUP BY channel_id) counted
	WHERE channels.id = counted.channel_id
), logged AS (
	INSERT INTO logs (user_id, type, quota, token_id, channel_id, request_id, username, token_name, model_name, "group",
		prompt_tokens, completion_tokens, use_time, is_stream, channel_name, ip, content, other, cost, subscription_id)
	SELECT user_id, log_type, charged, token_id, channel_id, request_id, username, token_name, model_name, "group",
		prompt_tokens, completion_tokens, use_time, is_stream, channel_name, ip, content, other, cost, 0
	FROM done WHERE logged
)
SELECT done.request_id, users_counted.quota FROM done LEFT JOIN users_counted ON users_counted.id = done.user_id`

type Read = <Row>(text: string, params: unknown[]) => Promise<Row[]>

/** Applies a batch of charges; answers, per request id applied, the user's wallet balance after it. */
export async function chargeMany(read: Read, charges: readonly AllowanceCharge[], node: string, now: number, deadline: number): Promise<Map<string, number>> {
	const input = charges.map(({ requestId, allowanceId, userId, tokenId, held, charged, channelId, log }) => ({
		request_id: requestId, allowance_id: allowanceId, user_id: userId, token_id: tokenId, held, charged, channel_id: channelId, logged: log !== undefined,
		...(log ? {
			log_type: log.type, username: log.username, token_name: log.tokenName, model_name: log.modelName, group: log.group,
			prompt_tokens: log.promptTokens, completion_tokens: log.completionTokens, use_time: log.useTime, is_stream: log.isStream,
			channel_name: log.channelName, ip: log.ip, content: log.content, other: log.other, cost: log.cost,
		} : {}),
	}))
	const rows = await read<{ request_id: string; quota: number | null }>(CHARGE_MANY, [JSON.stringify(input), now, node, deadline])
	return new Map(rows.map((row) => [row.request_id, Number(row.quota ?? 0)]))
}
