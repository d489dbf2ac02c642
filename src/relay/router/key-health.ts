/**
 * Health kept per key (a single-key channel's key is `#0`), as the router reads it:
 *
 * - **Cooldowns.** An upstream that answers 429 or 503 cools the key for its `Retry-After` (seconds
 *   or an HTTP date), `DEFAULT_COOLDOWN_MS` without one, never more than `MAX_COOLDOWN_MS`. Failures
 *   that say nothing of the request (other 5xx, timeouts, refused connections) cool it once
 *   `FAILURES_TO_BACK_OFF` of them come in a row, for `BACKOFF_BASE_MS` doubled at each further
 *   failure up to `MAX_BACKOFF_MS`; a success forgets them. A cooling key takes no call while
 *   another key can; cooldowns are shared with the other nodes (`share`, and `applyShared` for
 *   theirs).
 * - **For the policies** (policies.ts): calls in flight per key, and a moving average of each key's
 *   time to first byte. These stay on the node.
 *
 * Auto-disabled keys are not here: they are stored, and leave the routing table.
 */
import type { KeyTarget } from '@/lib/session-affinity'

export const DEFAULT_COOLDOWN_MS = 60_000
export const MAX_COOLDOWN_MS = 600_000
export const FAILURES_TO_BACK_OFF = 3
export const BACKOFF_BASE_MS = 5_000
export const MAX_BACKOFF_MS = 60_000
/** The weight of a new sample in the first-byte moving average. */
const LATENCY_SMOOTHING = 0.2
/** Past this many keys, entries that hold nothing are swept. */
const SWEEP_THRESHOLD = 50_000

const keyName = ({ channelId, keyIndex }: KeyTarget) => `${channelId}:${keyIndex}`

/** A shared cooldown: the key and until when (milliseconds since the epoch). */
export interface SharedCooldown extends KeyTarget {
	until: number
}

interface KeyState {
	coolingUntil: number
	failures: number
	inFlight: number
	latency: number | undefined
}

/** How long a `Retry-After` value asks to wait, in milliseconds; undefined when it says nothing usable. */
export function retryAfterMs(value: string | null | undefined, now: number): number | undefined {
	if (!value) return undefined
	const text = value.trim()
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000
	const date = Date.parse(text)
	return Number.isFinite(date) ? Math.max(0, date - now) : undefined
}

export class KeyHealth {
	private readonly keys = new Map<string, KeyState>()
	/** When the last cooldown known ends: until then some key may be cooling, after it none is. */
	private coolingEndsBy = 0

	/**
	 * `share` is told of every cooldown this node starts, to pass to the other nodes; `now` is the
	 * clock (milliseconds since the epoch).
	 */
	constructor(private readonly share: (cooldown: SharedCooldown) => void = () => {}, private readonly now: () => number = Date.now) {}

	private state(target: KeyTarget): KeyState {
		const name = keyName(target)
		let state = this.keys.get(name)
		if (!state) {
			if (this.keys.size > SWEEP_THRESHOLD) this.sweep()
			state = { coolingUntil: 0, failures: 0, inFlight: 0, latency: undefined }
			this.keys.set(name, state)
		}
		return state
	}

	private sweep() {
		const time = this.now()
		for (const [name, state] of this.keys) {
			if (state.coolingUntil <= time && state.failures === 0 && state.inFlight === 0) this.keys.delete(name)
		}
	}

	/** Whether any key may be cooling now (a cheap test the router makes before looking at each key). */
	anyCooling(): boolean {
		return this.coolingEndsBy > this.now()
	}

	/** Until when the key cools (milliseconds since the epoch), or 0 when it is not cooling. */
	coolingUntil(target: KeyTarget): number {
		const until = this.keys.get(keyName(target))?.coolingUntil ?? 0
		return until > this.now() ? until : 0
	}

	/** Cools the key for `milliseconds` (capped); a key already cooling longer keeps its end. */
	coolDown(target: KeyTarget, milliseconds: number) {
		const until = this.now() + Math.min(Math.max(0, milliseconds), MAX_COOLDOWN_MS)
		const state = this.state(target)
		if (until <= state.coolingUntil) return
		state.coolingUntil = until
		this.coolingEndsBy = Math.max(this.coolingEndsBy, until)
		this.share({ ...target, until })
	}

	/** The upstream answered 429 or 503: cooled for its Retry-After, or the default. */
	rateLimited(target: KeyTarget, retryAfter: string | null | undefined) {
		this.coolDown(target, retryAfterMs(retryAfter, this.now()) ?? DEFAULT_COOLDOWN_MS)
	}

	/** A failure that says nothing of the request: a few in a row cool the key, longer each time. */
	failed(target: KeyTarget) {
		const state = this.state(target)
		state.failures++
		if (state.failures < FAILURES_TO_BACK_OFF) return
		this.coolDown(target, Math.min(MAX_BACKOFF_MS, BACKOFF_BASE_MS * 2 ** (state.failures - FAILURES_TO_BACK_OFF)))
	}

	/** The key answered: its run of failures is over. */
	succeeded(target: KeyTarget) {
		const state = this.keys.get(keyName(target))
		if (state) state.failures = 0
	}

	/** Another node's cooldown. */
	applyShared(cooldown: SharedCooldown) {
		const state = this.state(cooldown)
		if (cooldown.until > state.coolingUntil) state.coolingUntil = cooldown.until
		this.coolingEndsBy = Math.max(this.coolingEndsBy, cooldown.until)
	}

	/** Counts a call in flight on the key until the answer's `done` is called (once). */
	started(target: KeyTarget): () => void {
		const state = this.state(target)
		state.inFlight++
		let done = false
		return () => {
			if (done) return
			done = true
			state.inFlight--
		}
	}

	inFlight(target: KeyTarget): number {
		return this.keys.get(keyName(target))?.inFlight ?? 0
	}

	recordFirstByte(target: KeyTarget, milliseconds: number) {
		const state = this.state(target)
		state.latency = state.latency === undefined ? milliseconds : state.latency + LATENCY_SMOOTHING * (milliseconds - state.latency)
	}

	latency(target: KeyTarget): number | undefined {
		return this.keys.get(keyName(target))?.latency
	}
}
