/**
 * Allowances (docs/architecture.md#allowances): a busy wallet's calls are held in memory, from a
 * slice of its balance this node took in one guarded transaction, instead of each call locking the
 * user's row to reserve. Charges are applied in batches (one statement per batch, batcher.ts), and
 * what is left goes back to the wallet once the user's calls on this node have been idle for a
 * moment, at shutdown, or — after a crash — by a reconciler once the node's lease on it has run out.
 *
 * The rules that keep money exact:
 * - Slices are taken only from a balance that holds at least `minimumHolds × balanceShare` of the
 *   call's hold, and never more than 1/balanceShare of it: a small balance is served the guarded
 *   way (a balance for 5 calls serves exactly 5 on any number of nodes), and other nodes always
 *   find most of a busy wallet still in it.
 * - In memory, a node never holds more than its allowance: `reserved` plus what was charged stays
 *   within `amount`, what the allowance row holds.
 * - Every database change is guarded by the allowance still being pending, so an allowance a
 *   reconciler returned gives nothing twice: a call held from it is then charged from the wallet,
 *   never below zero, like any charge above its hold.
 */
import { nowSeconds } from '@/lib/clock'
import { allowanceId, materialiseWork, renewWork, settleWithoutHoldWork, takeSliceWork } from './allowance-statements'
import type { Executor } from './batcher'
import { batchedLog, type SettleOutcome, type Settlement, voidHoldWork } from './holds'

export const ALLOWANCE = {
	/**
	 * A user is busy on a node from this many calls in a second there: an agent team, a batch job.
	 * Below it a call's hold is one row among the batch's (wallet-batch.ts), which costs it no round trip of its own.
	 */
	busyCallsPerSecond: 16,
	/** A slice is about this many seconds of the user's holds on the node (fewer slices to take: each is a transaction)… */
	sliceSeconds: 2,
	/** …and at least this many of the call's holds. */
	minimumHolds: 4,
	/** A slice takes at most 1/balanceShare of the balance. */
	balanceShare: 4,
	/** An allowance no call used for this long goes back to the wallet. */
	idleReturnMs: 500,
	/** A node's lease on its allowance: a reconciler returns it once this has passed unrenewed. */
	leaseSeconds: 10,
	renewEveryMs: 3_000,
	sweepEveryMs: 250,
	/** At shutdown, calls in flight get this long to end before what is left is returned. */
	shutdownWaitMs: 5_000,
} as const

/** The reason a returned allowance's hold is voided with. */
export const ALLOWANCE_RETURNED = 'allowance_returned'

/** What the relay's ledger asks of allowances; every member answers whether it applied. */
export interface Allowances {
	/** Holds the call from the user's allowance on this node; false: hold it the guarded way. */
	reserve(reservation: { requestId: string; userId: number; tokenId: number; amount: number }): Promise<boolean>
	/** Whether the call's hold is in an allowance. */
	holds(requestId: string): boolean
	settle(settlement: Settlement): Promise<SettleOutcome>
	/** Gives the call's hold back to its allowance; false: it was not held there. */
	release(requestId: string): boolean
	/** Moves the call's hold into a hold row of its own (nothing when it is not held here). */
	materialise(requestId: string): Promise<void>
	/** Returns every allowance to its wallet (shutdown), after letting calls in flight end. */
	returnAll(): Promise<void>
	/** The allowances outstanding on this node, for tests and metrics. */
	readonly outstanding: number
}

interface Allowance {
	id: string
	userId: number
	/** What the allowance row holds, less the charges on their way to it. */
	amount: number
	/** What the calls in flight hold of it. */
	reserved: number
	/** Database changes of it in flight: it is not returned while there are any. */
	writing: number
	lastUse: number
	renewedAt: number
	/** Returned (by this node or a reconciler): nothing more is taken from it. */
	gone: boolean
}

interface HeldCall { allowance: Allowance; userId: number; tokenId: number; amount: number }

/**
 * The calls a user made on this node: when the last `busyCallsPerSecond` of them came (a ring, so
 * "that many within a second" is exact across a second's boundary), and what they held in the
 * current and the previous second (the slice's size).
 */
interface Demand { times: Float64Array; next: number; second: number; held: number; previousHeld: number }

export function createAllowances(ledger: Executor, node: string): Allowances {
	const byUser = new Map<number, Allowance>()
	const held = new Map<string, HeldCall>()
	const demand = new Map<number, Demand>()
	const growing = new Map<number, Promise<boolean>>()
	let serial = 0
	let sweeper: ReturnType<typeof setInterval> | undefined

	const leaseDeadline = () => nowSeconds() + ALLOWANCE.leaseSeconds

	/** Counts the call and answers how much a slice should be; undefined: the user is not busy here. */
	function noteDemand(userId: number, amount: number): number | undefined {
		const now = performance.now()
		const second = Math.floor(now / 1000)
		let entry = demand.get(userId)
		if (!entry) {
			demand.set(userId, entry = { times: new Float64Array(ALLOWANCE.busyCallsPerSecond).fill(-Infinity), next: 0, second, held: 0, previousHeld: 0 })
			// The sweep forgets users idle for a second, so what is counted stays the users of the moment.
			startSweeping()
		}
		if (entry.second !== second) {
			entry.previousHeld = entry.second === second - 1 ? entry.held : 0
			entry.held = 0
			entry.second = second
		}
		entry.times[entry.next] = now
		entry.next = (entry.next + 1) % entry.times.length
		entry.held += amount
		return sliceFor(userId, amount)
	}

	/** About `sliceSeconds` of the user's holds on this node, and at least a few of this one; undefined: not busy. */
	function sliceFor(userId: number, amount: number): number | undefined {
		const entry = demand.get(userId)
		// The oldest of the last `busyCallsPerSecond` calls is the one the ring writes next.
		if (!entry || performance.now() - entry.times[entry.next]! > 1000) return undefined
		return Math.max(Math.max(entry.held, entry.previousHeld) * ALLOWANCE.sliceSeconds, amount * ALLOWANCE.minimumHolds)
	}

	function take(allowance: Allowance | undefined, requestId: string, userId: number, tokenId: number, amount: number): boolean {
		if (!allowance || allowance.gone || allowance.amount - allowance.reserved < amount) return false
		allowance.reserved += amount
		allowance.lastUse = performance.now()
		held.set(requestId, { allowance, userId, tokenId, amount })
		return true
	}

	function forget(allowance: Allowance) {
		allowance.gone = true
		if (byUser.get(allowance.userId) === allowance) byUser.delete(allowance.userId)
	}

	/** Takes a slice (a new allowance or more of the current one); one at a time per user. */
	function grow(userId: number, wanted: number, least: number, share: number = ALLOWANCE.balanceShare): Promise<boolean> {
		const inFlight = growing.get(userId)
		if (inFlight) return inFlight
		const growth = (async () => {
			const current = byUser.get(userId)
			const existing = current && !current.gone ? current : undefined
			const id = existing?.id ?? allowanceId(node, ++serial)
			if (existing) existing.writing++
			const slice = await ledger.transaction(takeSliceWork({
				allowanceId: id, userId, wanted, least, share, node, deadline: leaseDeadline(), existing: existing !== undefined,
			})).catch(() => 0).finally(() => { if (existing) existing.writing-- }) // a failed transaction took nothing: the guarded way then
			if (slice < 0 && existing) forget(existing)
			if (slice <= 0) return false
			const now = performance.now()
			if (existing) {
				existing.amount += slice
				existing.renewedAt = now
			} else {
				byUser.set(userId, { id, userId, amount: slice, reserved: 0, writing: 0, lastUse: now, renewedAt: now, gone: false })
			}
			startSweeping()
			return true
		})().finally(() => growing.delete(userId))
		growing.set(userId, growth)
		return growth
	}

	async function giveBack(allowance: Allowance) {
		forget(allowance)
		await ledger.transaction(function* () {
			return yield* voidHoldWork(allowance.id, ALLOWANCE_RETURNED)
		})
	}

	function sweep() {
		const now = performance.now()
		for (const allowance of byUser.values()) {
			if (allowance.reserved === 0 && allowance.writing === 0 && now - allowance.lastUse >= ALLOWANCE.idleReturnMs) {
				// Failing, it stays pending under an expiring lease: a reconciler returns it.
				void giveBack(allowance).catch(() => {})
			} else if (now - allowance.renewedAt >= ALLOWANCE.renewEveryMs) {
				allowance.renewedAt = now
				void ledger.transaction(renewWork(allowance.id, leaseDeadline())).then((renewed) => { if (!renewed) forget(allowance) }, () => {})
			}
		}
		const second = Math.floor(now / 1000)
		for (const [userId, entry] of demand) if (entry.second < second - 1) demand.delete(userId)
		if (byUser.size === 0 && demand.size === 0 && sweeper) {
			clearInterval(sweeper)
			sweeper = undefined
		}
	}

	function startSweeping() {
		if (sweeper) return
		sweeper = setInterval(sweep, ALLOWANCE.sweepEveryMs)
		sweeper.unref?.()
	}

	return {
		async reserve({ requestId, userId, tokenId, amount }) {
			const wanted = noteDemand(userId, amount)
			if (take(byUser.get(userId), requestId, userId, tokenId, amount)) return true
			if (wanted === undefined) return false
			// Calls that waited for a slice too small for them all wait for one more (sized by the burst so far).
			for (let attempt = 0; attempt < 2; attempt++) {
				if (!(await grow(userId, sliceFor(userId, amount) ?? wanted, amount * ALLOWANCE.minimumHolds))) return false
				if (take(byUser.get(userId), requestId, userId, tokenId, amount)) return true
			}
			return false
		},

		holds: (requestId) => held.has(requestId),

		async settle(settlement) {
			const call = held.get(settlement.requestId)!
			held.delete(settlement.requestId)
			const { allowance, userId, tokenId } = call
			allowance.reserved -= call.amount
			allowance.lastUse = performance.now()
			const actual = Math.max(0, settlement.actual)
			// A charge above what is left takes the rest from the wallet, as far as it goes, as a charge above its hold would.
			for (let attempt = 0; attempt < 2 && !allowance.gone && actual > allowance.amount - allowance.reserved; attempt++) {
				await grow(userId, actual - (allowance.amount - allowance.reserved), 1, 1)
			}
			if (allowance.gone) return ledger.transaction(settleWithoutHoldWork(settlement, { userId, tokenId, node }, ledger.dialect))
			const charged = Math.min(actual, allowance.amount - allowance.reserved)
			const shortfall = actual - charged
			allowance.amount -= charged
			allowance.writing++
			const balance = await ledger.walletHolds!.charge({
				requestId: settlement.requestId, allowanceId: allowance.id, userId, tokenId, held: call.amount, charged, channelId: settlement.channelId,
				log: batchedLog(settlement, shortfall),
			}).finally(() => { allowance.writing-- })
			if (balance === undefined) {
				forget(allowance)
				return ledger.transaction(settleWithoutHoldWork(settlement, { userId, tokenId, node }, ledger.dialect))
			}
			allowance.renewedAt = performance.now()
			// The user's balance, as they would count it: the wallet and what this node holds of it.
			return { settled: true, charged, shortfall, balance: settlement.readBalance ? balance + allowance.amount : undefined }
		},

		release(requestId) {
			const call = held.get(requestId)
			if (!call) return false
			held.delete(requestId)
			call.allowance.reserved -= call.amount
			call.allowance.lastUse = performance.now()
			return true
		},

		async materialise(requestId) {
			const call = held.get(requestId)
			if (!call) return
			held.delete(requestId)
			const { allowance } = call
			allowance.reserved -= call.amount
			const from = allowance.gone ? undefined : allowance.id
			if (from) {
				allowance.amount -= call.amount
				allowance.writing++
			}
			const spent = await ledger.transaction(materialiseWork({ allowanceId: from, requestId, userId: call.userId, tokenId: call.tokenId, amount: call.amount, node }))
				.finally(() => { if (from) allowance.writing-- })
			if (from && !spent) forget(allowance)
		},

		async returnAll() {
			if (sweeper) clearInterval(sweeper)
			sweeper = undefined
			const waitUntil = performance.now() + ALLOWANCE.shutdownWaitMs
			while ([...byUser.values()].some((allowance) => allowance.reserved > 0 || allowance.writing > 0) && performance.now() < waitUntil) await Bun.sleep(20)
			await Promise.all([...byUser.values()].map((allowance) => giveBack(allowance).catch(() => {})))
		},

		get outstanding() {
			return byUser.size
		},
	}
}
