/**
 * Holds taken from usage windows, one machinery over two tables of the same shape: a
 * subscription's windows (the ledger's first funding source; holds.ts falls back to the wallet)
 * and an API token's spend limits (token-windows.ts). An owner has 1 to 8 windows; each window's
 * allowance lives in periods (`subscription_periods`, `token_periods`): the first use after the last period ended starts a new one of
 * the window's length, with the full allowance. A hold fits only when every window's current
 * period has room, and then takes the same amount from each.
 *
 * Every period keeps `quota = used + held + remain`: a hold moves `remain` to `held` (guarded, so
 * `remain` never goes below zero on any number of nodes), settling moves the hold to `used` and
 * the rest back to `remain`, voiding moves it all back. The hold row names the periods it took
 * from, so a window that resets while a call runs charges the period where the call began.
 *
 * Units of work for the batching executor (batcher.ts): a take that fails half-way gives back what
 * it took and answers undefined, never throws.
 */
import { execute, query } from '@/db'

/** A window of a subscription's terms: its length and what each period of it allows. */
export interface PlanWindow {
	seconds: number
	quota: number
}

/** A subscription a hold may be taken from, with the windows it was granted. */
export interface PlanSource {
	subscriptionId: number
	windows: readonly PlanWindow[]
}

/**
 * A table of window periods (`subscription_periods`, `token_periods`), the column naming their
 * owner, and what its `window_index` column records of a window: its place among the owner's
 * windows (a subscription's never change), or something else that tells the windows apart.
 */
interface PeriodTable { table: string; owner: string; windowKey?: (window: PlanWindow, index: number) => number }

/**
 * The statements and units of work over one table of periods: every statement's text is built
 * once per window count (at most 8) and kept.
 */
export function windowPeriods({ table, owner, windowKey = (_window, index) => index }: PeriodTable) {
	const CURRENT_PERIODS = `SELECT id, window_index, remain FROM ${table} WHERE ${owner} = $1 AND ends_at > $2`
	/**
	 * Starts the window's next period, only when none is current; two nodes starting the same one at
	 * once compute the same sequence and the unique index lets one in. (SQLite's parser needs the
	 * SELECT's WHERE before ON CONFLICT.)
	 */
	const START_PERIOD = `INSERT INTO ${table} (${owner}, user_id, window_index, sequence, quota, remain, started_at, ends_at)
		SELECT CAST($1 AS bigint), CAST($2 AS bigint), CAST($3 AS bigint),
			(SELECT COALESCE(MAX(sequence), 0) + 1 FROM ${table} WHERE ${owner} = $1 AND window_index = $3),
			CAST($4 AS bigint), CAST($4 AS bigint), CAST($5 AS bigint), CAST($6 AS bigint)
		WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${owner} = $1 AND window_index = $3 AND ends_at > $5)
		ON CONFLICT (${owner}, window_index, sequence) DO NOTHING`

	const takeText = new Map<number, string>()
	const moveText = new Map<number, string>()
	const giveText = new Map<number, string>()
	const minText = new Map<number, string>()
	const cached = (map: Map<number, string>, count: number, build: (list: string) => string, first = 2) => {
		let text = map.get(count)
		if (text === undefined) {
			text = build(inList(first, count))
			map.set(count, text)
		}
		return text
	}

	/** Moves `$1` from remain to held in each period that has it; answers the ids it moved. */
	const TAKE = (count: number) => cached(takeText, count, (list) => `UPDATE ${table} SET remain = remain - $1, held = held + $1 WHERE id IN ${list} AND remain >= $1 RETURNING id`)
	/** Gives `$1` from held back to remain. */
	const GIVE = (count: number) => cached(giveText, count, (list) => `UPDATE ${table} SET remain = remain + $1, held = held - $1 WHERE id IN ${list}`)
	/** Settles: `$1` leaves held, `$N` (the charge, the last parameter) goes to used, the rest back to remain. */
	const MOVE = (count: number) => cached(moveText, count, (list) => `UPDATE ${table} SET held = held - $1, used = used + $${count + 2}, remain = remain + $1 - $${count + 2} WHERE id IN ${list}`)
	const LEAST_REMAIN = (count: number) => cached(minText, count, (list) => `SELECT MIN(remain) AS least FROM ${table} WHERE id IN ${list}`, 1)

	/**
	 * Takes `amount` from every window of the owner, starting periods that have not begun; answers
	 * the periods it took from (in the hold row's text form), or undefined when some window lacks
	 * room (then nothing changed).
	 */
	function* take(ownerId: number, windows: readonly PlanWindow[], userId: number, amount: number, now: number) {
		let current = yield* query<{ id: number; window_index: number; remain: number }>(CURRENT_PERIODS, [ownerId, now])
		if (current.length < windows.length) {
			const started = new Set(current.map((period) => Number(period.window_index)))
			for (let index = 0; index < windows.length; index++) {
				const window = windows[index]!
				const key = windowKey(window, index)
				if (started.has(key)) continue
				// A window whose allowance is below the hold cannot take it: no need to start its period.
				if (window.quota < amount) return undefined
				yield* execute(START_PERIOD, [ownerId, userId, key, window.quota, now, now + window.seconds])
			}
			current = yield* query<{ id: number; window_index: number; remain: number }>(CURRENT_PERIODS, [ownerId, now])
		}
		// One current period per window of the terms (a period of a window the terms no longer have is not counted).
		const keys = new Set(windows.map(windowKey))
		const byWindow = new Map<number, { id: number; remain: number }>()
		for (const period of current) {
			const key = Number(period.window_index)
			if (keys.has(key) && !byWindow.has(key)) byWindow.set(key, { id: Number(period.id), remain: Number(period.remain) })
		}
		if (byWindow.size < windows.length) return undefined
		const periods = [...byWindow.values()]
		if (periods.some((period) => period.remain < amount)) return undefined
		const ids = periods.map((period) => period.id).sort((first, second) => first - second)
		const taken = yield* query<{ id: number }>(TAKE(ids.length), [amount, ...ids])
		if (taken.length < ids.length) {
			// Another node took the room meanwhile: give back what this took.
			if (taken.length > 0) yield* execute(GIVE(taken.length), [amount, ...taken.map((row) => Number(row.id))])
			return undefined
		}
		return ids.join(',')
	}

	/** Gives a hold back to its periods in full (a void). */
	function* release(periods: string, amount: number) {
		const ids = periodIds(periods)
		if (ids.length > 0) yield* execute(GIVE(ids.length), [amount, ...ids])
	}

	/**
	 * Takes up to `extra` more from every period of a hold (a call that cost more than it held): the
	 * least room among them, all or nothing. Answers what it took.
	 */
	function* takeMore(periods: string, extra: number) {
		const ids = periodIds(periods)
		if (ids.length === 0 || extra <= 0) return 0
		const [row] = yield* query<{ least: number | null }>(LEAST_REMAIN(ids.length), ids)
		const room = Math.min(extra, Math.max(0, Number(row?.least ?? 0)))
		if (room <= 0) return 0
		const taken = yield* query<{ id: number }>(TAKE(ids.length), [room, ...ids])
		if (taken.length < ids.length) {
			if (taken.length > 0) yield* execute(GIVE(taken.length), [room, ...taken.map((row) => Number(row.id))])
			return 0
		}
		return room
	}

	/** The least room among a hold's periods (what `takeMore` could take at most), without taking it. */
	function* room(periods: string) {
		const ids = periodIds(periods)
		if (ids.length === 0) return Number.POSITIVE_INFINITY
		const [row] = yield* query<{ least: number | null }>(LEAST_REMAIN(ids.length), ids)
		return Math.max(0, Number(row?.least ?? 0))
	}

	/** Settles a hold of `held` (what the periods hold for it) at `charged` (at most `held`). */
	function* settle(periods: string, held: number, charged: number) {
		const ids = periodIds(periods)
		if (ids.length > 0) yield* execute(MOVE(ids.length), [held, ...ids, charged])
	}

	return { take, release, takeMore, room, settle }
}

/** `IN ($first, …)` over `count` parameters from `first` on: one statement text per window count (at most 8). */
const inList = (first: number, count: number) => `(${Array.from({ length: count }, (_, index) => `$${first + index}`).join(', ')})`

/** The period ids a hold row names. */
export const periodIds = (periods: string): number[] => (periods ? periods.split(',').map(Number) : [])

const subscriptionPeriods = windowPeriods({ table: 'subscription_periods', owner: 'subscription_id' })

/**
 * Takes `amount` from every window of the subscription, starting periods that have not begun;
 * answers the periods it took from (in the hold row's text form), or undefined when some window
 * lacks room (then nothing changed).
 */
export const takeFromPlan = (source: PlanSource, userId: number, amount: number, now: number) => subscriptionPeriods.take(source.subscriptionId, source.windows, userId, amount, now)
/** Gives a hold back to its periods in full (a void). */
export const releasePlanHold = subscriptionPeriods.release
/** Takes up to `extra` more from every period of a hold: the least room among them, all or nothing. Answers what it took. */
export const takeMoreFromPlan = subscriptionPeriods.takeMore
/** Settles a hold of `held` (what the periods hold for it) at `charged` (at most `held`). */
export const settlePlanHold = subscriptionPeriods.settle
