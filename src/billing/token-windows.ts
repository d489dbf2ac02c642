/**
 * An API token's spend limits over rolling windows (`tokens.quota_windows`): each window, like a
 * plan's, lives in periods (`token_periods`) that start at the first call after the last one ended
 * and allow the window's quota. A call's hold must fit every window of its token, whatever pays it
 * (a plan or the wallet): it is taken from each window's current period by the same guarded
 * statements as a subscription's (plan-holds.ts), so no period goes below zero on any number of
 * nodes, and settle and void give it back to the periods it came from (`quota_holds.token_periods`).
 *
 * A token's windows have distinct lengths, and its periods record the window's length in
 * `window_index`: an edit that adds, removes or reorders windows leaves the others' periods theirs.
 */
import { execute, query } from '@/db'
import { windowPeriods, type PlanWindow } from './plan-holds'
import { readWindows } from './subscriptions'

export const tokenPeriods = windowPeriods({ table: 'token_periods', owner: 'token_id', windowKey: (window) => window.seconds })

/** A token's windows as stored (JSON); an unreadable value reads as none. */
export const readTokenWindows = (text: string): PlanWindow[] => readWindows(text)

/** The window that refused a call: its terms, what is left of its current period and when that ends (null: no period yet). */
export interface ExhaustedWindow {
	seconds: number
	quota: number
	remaining: number
	resetsAt: number | null
}

/** A call whose hold does not fit one of its token's windows. */
export class TokenWindowExhaustedError extends Error {
	constructor(readonly window: ExhaustedWindow) {
		super(`the token's spend limit of ${window.quota} quota per ${window.seconds} s is reached`)
	}
}

const CURRENT = 'SELECT window_index, remain, ends_at FROM token_periods WHERE token_id = $1 AND ends_at > $2'

/** The first window of the token without room for `amount` now (read only, for the refusal's words). */
export function* exhaustedWindow(tokenId: number, windows: readonly PlanWindow[], amount: number, now: number) {
	const current = yield* query<{ window_index: number; remain: number; ends_at: number }>(CURRENT, [tokenId, now])
	const bySeconds = new Map(current.map((period) => [Number(period.window_index), period]))
	for (const window of windows) {
		const period = bySeconds.get(window.seconds)
		const remaining = period ? Number(period.remain) : window.quota
		if (remaining < amount) return { seconds: window.seconds, quota: window.quota, remaining, resetsAt: period ? Number(period.ends_at) : null }
	}
	// Another call took the room between the take and this read: name the first window.
	return { seconds: windows[0]!.seconds, quota: windows[0]!.quota, remaining: 0, resetsAt: null }
}

/** Ends the current periods of the windows whose lengths are not among `$3…` (all of them with none). */
const endPeriodsExcept = (kept: number) => kept === 0
	? 'UPDATE token_periods SET ends_at = $2 WHERE token_id = $1 AND ends_at > $2'
	: `UPDATE token_periods SET ends_at = $2 WHERE token_id = $1 AND ends_at > $2 AND window_index NOT IN (${Array.from({ length: kept }, (_, index) => `$${index + 3}`).join(', ')})`
/** A new limit for the current period: never below what it used and holds, and `quota = used + held + remain` kept. */
const RELIMIT_PERIOD = `UPDATE token_periods SET quota = CASE WHEN used + held > $3 THEN used + held ELSE $3 END,
	remain = CASE WHEN used + held > $3 THEN 0 ELSE $3 - used - held END
	WHERE token_id = $1 AND window_index = $2 AND ends_at > $4`

/**
 * A token's windows changed to `next`: a window of a length it had before keeps its current period,
 * with the new limit (what it spent still counts); the current period of a window taken off ends
 * now. Calls in flight still settle into the periods they took from.
 */
export function* reviseTokenWindowsWork(tokenId: number, next: readonly PlanWindow[], now: number) {
	for (const window of next) yield* execute(RELIMIT_PERIOD, [tokenId, window.seconds, window.quota, now])
	yield* execute(endPeriodsExcept(next.length), [tokenId, now, ...next.map((window) => window.seconds)])
}
