/**
 * The ledger's hot path on Postgres: the wallet holds of every call in flight, taken and settled
 * one statement a batch (the batching executor, batcher.ts, gathers them during one turn of the
 * event loop). On Postgres each statement is a round trip to the server, and a call used to pay
 * eight of them (three to reserve, five to settle) one after the other, so the round trips, not
 * the work, bounded a node's calls a second. Here a batch of reserves is one statement and a batch
 * of settles another, each a single implicit transaction: all of it applies or none.
 *
 * Both statements lock the rows they change table by table (users, then tokens, then channels),
 * each table's rows in id order (`… ORDER BY id FOR UPDATE`; the `(SELECT COUNT(*) FROM …) >= 0`
 * conditions make a table's locks wait until the previous table's are all taken): statements of
 * several batches in flight, on this node and others, wait for each other instead of deadlocking.
 *
 * The guards stay in SQL. A reserve batch locks its users and limited tokens, keeps
 * the calls whose token has room for all of its calls in the batch, then takes from each user what
 * all of its remaining calls need with the guarded update `quota >= need`: a user whose balance
 * cannot cover them all takes nothing here, and those calls are reserved again one at a time
 * (holds.ts `reserve`, in a transaction of their own), so a balance for 5 calls still serves exactly
 * 5. A settle batch closes the pending wallet holds that cover their charge and folds the counters:
 * one update per user (refund, used quota, request count), per token and per channel, and the
 * consume logs in one insert (Postgres runs every data-modifying part of a WITH to completion,
 * whether or not the query reads it). A call it did not settle (the hold was no longer pending, came from a
 * subscription, or holds less than the charge) is settled the one-at-a-time way.
 */
import type { LogType } from '@shared/log'
import type { Settlement } from './holds'

/** A reserve of the wallet (and, for a limited token, of the token). */
export interface WalletReservation {
	requestId: string
	userId: number
	tokenId: number
	/** Whether the token's remaining quota is debited too. */
	limited: boolean
	amount: number
	node: string
	deadline: number
}

/** A settle of a wallet hold whose charge is at most the hold. */
export interface WalletSettlement {
	requestId: string
	actual: number
	channelId: number
	/** The consume log line (a settle's, with its `other` as JSON text and its cost), or undefined when consume logs are off. */
	log: (Omit<NonNullable<Settlement['log']>, 'type' | 'other'> & { type: LogType; other: string; cost: number | null }) | undefined
}

/** One JSON parameter carries the whole batch: arrays of booleans and nulls bind poorly as `unnest` parameters. */
const RESERVE_MANY = `WITH input AS (
	SELECT * FROM json_to_recordset(CAST($1 AS text)::json) AS i(request_id text, user_id bigint, token_id bigint, limited boolean, amount bigint)
), users_locked AS (
	SELECT id FROM users WHERE id IN (SELECT user_id FROM input) ORDER BY id FOR UPDATE
), tokens_locked AS (
	SELECT id, remain_quota FROM tokens WHERE id IN (SELECT token_id FROM input WHERE limited) AND (SELECT COUNT(*) FROM users_locked) >= 0
	ORDER BY id FOR UPDATE
), tokens_with_room AS (
	SELECT locked.id FROM tokens_locked locked
	JOIN (SELECT token_id, SUM(amount) AS need FROM input WHERE limited GROUP BY token_id) wanted ON wanted.token_id = locked.id
	WHERE locked.remain_quota >= wanted.need
), candidates AS (
	SELECT * FROM input WHERE NOT limited OR token_id IN (SELECT id FROM tokens_with_room)
), users_taken AS (
	UPDATE users SET quota = users.quota - wanted.need
	FROM (SELECT user_id, SUM(amount) AS need FROM candidates WHERE user_id IN (SELECT id FROM users_locked) GROUP BY user_id) wanted
	WHERE users.id = wanted.user_id AND users.quota >= wanted.need
	RETURNING users.id
), held AS (
	SELECT * FROM candidates WHERE user_id IN (SELECT id FROM users_taken)
), tokens_taken AS (
	UPDATE tokens SET remain_quota = tokens.remain_quota - wanted.need
	FROM (SELECT token_id, SUM(amount) AS need FROM held WHERE limited GROUP BY token_id) wanted
	WHERE tokens.id = wanted.token_id AND tokens.remain_quota >= wanted.need
	RETURNING tokens.id
), inserted AS (
	INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, node, deadline)
	SELECT request_id, user_id, token_id, limited, amount, $2, $3 FROM held
	WHERE NOT limited OR token_id IN (SELECT id FROM tokens_taken)
	RETURNING request_id
)
SELECT request_id FROM inserted`

/**
 * Settles the batch's wallet holds and applies its allowance charges (allowances.ts), in one
 * statement. A settle closes its pending hold (its own wallet hold, charge within it) and returns
 * the rest; a charge takes what its call cost from its allowance (guarded: still pending, enough
 * left; its lease renewed) and records a settled hold row for the call. Both then count on user,
 * token and channel and write their consume log.
 */
const SETTLE_MANY = `WITH input AS (
	SELECT * FROM json_to_recordset(CAST($1 AS text)::json) AS i(
		request_id text, allowance_id text, user_id bigint, token_id bigint, held bigint, actual bigint, channel_id bigint, logged boolean,
		log_type bigint, username text, token_name text, model_name text, "group" text, prompt_tokens bigint, completion_tokens bigint,
		use_time bigint, is_stream boolean, channel_name text, ip text, content text, other text, cost bigint)
), closed AS (
	UPDATE quota_holds SET state = 'settled', closed_at = $2, charged = input.actual
	FROM input
	WHERE input.allowance_id IS NULL AND quota_holds.request_id = input.request_id AND quota_holds.state = 'pending'
		AND quota_holds.subscription_id = 0 AND quota_holds.token_periods = '' AND quota_holds.amount >= input.actual
	RETURNING quota_holds.request_id, quota_holds.user_id, quota_holds.token_id, quota_holds.token_limited, quota_holds.amount, input.actual, input.channel_id
), spent AS (
	UPDATE quota_holds SET amount = quota_holds.amount - wanted.total, deadline = $4
	FROM (SELECT allowance_id, SUM(actual) AS total FROM input WHERE allowance_id IS NOT NULL GROUP BY allowance_id) wanted
	WHERE quota_holds.request_id = wanted.allowance_id AND quota_holds.state = 'pending' AND quota_holds.amount >= wanted.total
	RETURNING quota_holds.request_id
), charged AS (
	SELECT request_id, user_id, token_id, held, actual, channel_id FROM input WHERE allowance_id IN (SELECT request_id FROM spent)
), recorded AS (
	INSERT INTO quota_holds (request_id, user_id, token_id, token_limited, amount, charged, state, node, deadline, closed_at)
	SELECT request_id, user_id, token_id, false, held, actual, 'settled', $3, $2, $2 FROM charged
), done AS (
	SELECT request_id, user_id, token_id, token_limited, amount - actual AS refund, actual, channel_id FROM closed
	UNION ALL
	SELECT request_id, user_id, token_id, false, 0, actual, channel_id FROM charged
), users_locked AS (
	SELECT id FROM users WHERE id IN (SELECT user_id FROM done) ORDER BY id FOR UPDATE
), users_counted AS (
	UPDATE users SET quota = users.quota + counted.refund, used_quota = users.used_quota + counted.charged, request_count = users.request_count + counted.calls
	FROM (SELECT user_id, SUM(refund) AS refund, SUM(actual) AS charged, COUNT(*) AS calls
		FROM done WHERE user_id IN (SELECT id FROM users_locked) GROUP BY user_id) counted
	WHERE users.id = counted.user_id
	RETURNING users.id, users.quota
), tokens_locked AS (
	SELECT id FROM tokens WHERE id IN (SELECT token_id FROM done) AND (SELECT COUNT(*) FROM users_counted) >= 0 ORDER BY id FOR UPDATE
), tokens_counted AS (
	UPDATE tokens SET remain_quota = tokens.remain_quota + counted.refund, used_quota = tokens.used_quota + counted.charged, accessed_time = $2
	FROM (SELECT token_id, SUM(CASE WHEN token_limited THEN refund ELSE 0 END) AS refund, SUM(actual) AS charged
		FROM done WHERE token_id IN (SELECT id FROM tokens_locked) GROUP BY token_id) counted
	WHERE tokens.id = counted.token_id
	RETURNING tokens.id
), channels_locked AS (
	SELECT id FROM channels WHERE id IN (SELECT channel_id FROM done) AND (SELECT COUNT(*) FROM tokens_counted) >= 0 ORDER BY id FOR UPDATE
), channels_counted AS (
	UPDATE channels SET used_quota = channels.used_quota + counted.charged
	FROM (SELECT channel_id, SUM(actual) AS charged FROM done WHERE channel_id IN (SELECT id FROM channels_locked) GROUP BY channel_id) counted
	WHERE channels.id = counted.channel_id
), logged AS (
	INSERT INTO logs (user_id, type, quota, token_id, channel_id, request_id, username, token_name, model_name, "group",
		prompt_tokens, completion_tokens, use_time, is_stream, channel_name, ip, content, other, cost, subscription_id)
	SELECT done.user_id, input.log_type, done.actual, done.token_id, input.channel_id, input.request_id, input.username, input.token_name,
		input.model_name, input."group", input.prompt_tokens, input.completion_tokens, input.use_time, input.is_stream, input.channel_name,
		input.ip, input.content, input.other, input.cost, 0
	FROM done JOIN input ON input.request_id = done.request_id
	WHERE input.logged
)
SELECT done.request_id, done.actual, users_counted.quota
FROM done LEFT JOIN users_counted ON users_counted.id = done.user_id`

type Read = <Row>(text: string, params: unknown[]) => Promise<Row[]>

/**
 * Reserves every hold of the batch it can, in one statement; answers the request ids held. The
 * others took nothing and are to be reserved one at a time. All of the batch's holds share the
 * node and the deadline of the first (a batch is gathered within a turn of the event loop).
 */
export async function reserveMany(read: Read, reservations: readonly WalletReservation[]): Promise<Set<string>> {
	const input = reservations.map(({ requestId, userId, tokenId, limited, amount }) => ({ request_id: requestId, user_id: userId, token_id: tokenId, limited, amount }))
	const first = reservations[0]!
	const rows = await read<{ request_id: string }>(RESERVE_MANY, [JSON.stringify(input), first.node, first.deadline])
	return new Set(rows.map((row) => row.request_id))
}

/** A call held in an allowance (allowances.ts), charged within what the allowance held for it. */
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

/** What a batch settled or charged: per request id, the charge and the user's wallet balance after the batch. */
export type SettledMany = Map<string, { charged: number; balance: number }>

/**
 * Settles every hold of the batch it can and applies every charge whose allowance is still
 * pending, in one statement; the others changed nothing. `node` and `leaseDeadline` are the
 * allowances' node and its lease renewed by the charges.
 */
export async function settleMany(
	read: Read, settlements: readonly WalletSettlement[], charges: readonly AllowanceCharge[], now: number, node: string, leaseDeadline: number,
): Promise<SettledMany> {
	const logColumns = (log: WalletSettlement['log']) => log ? {
		log_type: log.type, username: log.username, token_name: log.tokenName, model_name: log.modelName, group: log.group,
		prompt_tokens: log.promptTokens, completion_tokens: log.completionTokens, use_time: log.useTime, is_stream: log.isStream,
		channel_name: log.channelName, ip: log.ip, content: log.content, other: log.other, cost: log.cost,
	} : {}
	const input = [
		...settlements.map(({ requestId, actual, channelId, log }) => ({ request_id: requestId, actual, channel_id: channelId, logged: log !== undefined, ...logColumns(log) })),
		...charges.map(({ requestId, allowanceId, userId, tokenId, held, charged, channelId, log }) => ({
			request_id: requestId, allowance_id: allowanceId, user_id: userId, token_id: tokenId, held, actual: charged, channel_id: channelId,
			logged: log !== undefined, ...logColumns(log),
		})),
	]
	const rows = await read<{ request_id: string; actual: number; quota: number | null }>(SETTLE_MANY, [JSON.stringify(input), now, node, leaseDeadline])
	return new Map(rows.map((row) => [row.request_id, { charged: Number(row.actual), balance: Number(row.quota ?? 0) }]))
}
