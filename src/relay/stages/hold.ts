/**
 * The hold stage: takes the call's hold — the quota its price says it may cost — from its funding
 * sources: the first of the user's active subscriptions that covers the model and has room in
 * every window, else the wallet (billing/holds.ts); a limited token's quota is checked either way.
 * It refuses the call (403, in the ledger's words) when nothing can cover it, or when a spend
 * window of the token has no room for it (billing/token-windows.ts). Users without a
 * subscription cost no read here: the subscription book is in memory. The hold's whole life is one `CallScope`: reserved here, then ended by
 * exactly one of settle or void (settle.ts). Both are idempotent — the first one wins, later calls
 * do nothing — so no path that might end a call twice (a stream that completes while its client
 * goes away, a failure after a settle) can charge or refund twice, and the last-resort `void`
 * after a failure is always safe.
 */
import type { Dependencies } from '@/dependencies'
import { InsufficientQuotaError, materialiseHold, reserve } from '@/billing/holds'
import { TokenWindowExhaustedError } from '@/billing/token-windows'
import type { ActiveSubscription } from '@/billing/subscription-book'
import type { Usage } from '@/billing/price'
import { relayErrors } from '../errors'
import type { RelayServices } from '../services'
import type { AffinityOutcome, CallAttempt, HeldCall, PricedCall } from './call'
import type { RouteTarget } from './route'
import { type AnsweredBy, type Funding, settleCall, type SettleDetails, type ScopedCall, voidCall } from './settle'

type HoldState = 'none' | 'held' | 'closed'

export class CallScope {
	private state: HoldState = 'none'
	private answeredBy: AnsweredBy | undefined
	private closers: (() => void)[] = []
	/** The subscription that holds the call; undefined: the wallet. */
	funding: Funding | undefined
	/** What the hold took. */
	private amount = 0
	/** The token's spend windows hold part of it: the settle must give them back their share (no batched wallet settle). */
	private windowed = false

	constructor(private readonly dependencies: Dependencies, private readonly relay: RelayServices, readonly call: ScopedCall) {}

	/** Takes the hold; refuses the call (403, in the ledger's words) when the user or the token cannot cover it. */
	async reserve(amount: number): Promise<void> {
		if (this.state !== 'none') throw new Error('a call reserves its hold once')
		const { requestId, caller, model } = this.call
		const found = this.dependencies.subscriptions.sourcesFor(caller.user.id, model)
		const sources: readonly ActiveSubscription[] = found instanceof Promise ? await found : found
		try {
			const paidBy = await reserve(this.relay.ledger, {
				requestId, userId: caller.user.id, tokenId: caller.token.id, tokenLimited: !caller.token.unlimited, amount, node: this.relay.nodeInstance,
				sources: sources.length > 0 ? sources : undefined, tokenWindows: caller.token.quotaWindows,
			})
			this.windowed = (caller.token.quotaWindows?.length ?? 0) > 0
			if (paidBy) this.funding = { subscriptionId: paidBy, name: sources.find((source) => source.subscriptionId === paidBy)?.name ?? '' }
			this.amount = amount
		} catch (error) {
			if (error instanceof InsufficientQuotaError) throw error.owner === 'user' ? relayErrors.insufficientUserQuota() : relayErrors.insufficientTokenQuota()
			if (error instanceof TokenWindowExhaustedError) throw relayErrors.tokenWindowExhausted(error.window)
			throw error
		}
		this.state = 'held'
	}

	/** The key that answered, every attempt and how the session's affinity went, for the log; known once an upstream answered. */
	answered(target: RouteTarget, attempts: readonly CallAttempt[], affinity: AffinityOutcome | undefined) {
		this.answeredBy = { target, attempts, affinity }
	}

	/** The channel the answer came from, as the call was sent with it (its settings then); undefined before an upstream answered. */
	get answeringChannel(): RouteTarget['channel'] | undefined {
		return this.answeredBy?.target.channel
	}

	/** Runs `closer` once the call ends, settled or voided (a call in flight stops being counted). */
	onClose(closer: () => void) {
		if (this.state === 'closed') closer()
		else this.closers.push(closer)
	}

	private close() {
		this.state = 'closed'
		for (const closer of this.closers.splice(0)) closer()
	}

	/** Whether the hold is still open: neither settled nor voided. */
	get open() {
		return this.state === 'held'
	}

	/**
	 * Charges `usage` at the call's pricing and logs the call (settle.ts). Only once, and only for a
	 * call an upstream answered (`answered`). Failures of the ledger propagate. Answers whether this
	 * settle charged the call: false when the hold was closed already, or an empty answer's was returned.
	 */
	async settle(usage: Usage, details: SettleDetails): Promise<boolean> {
		if (this.state !== 'held') return false
		if (!this.answeredBy) throw new Error('a call is settled only once an upstream answered it')
		this.close()
		return await settleCall(this.dependencies, this.relay, this.call, this.answeredBy, usage, details, this.funding, this.funding || this.windowed ? undefined : this.amount)
	}

	/**
	 * Ends the hold through a unit of work the caller makes itself through the ledger: an answer from
	 * the response cache, which no upstream made, settled at its own price (stages/response-cache.ts);
	 * a task the upstream refused, its hold returned with a log line (relay/tasks/submission.ts).
	 * Only once, like settle.
	 */
	async settleWith(settlement: () => Promise<void>): Promise<void> {
		if (this.state !== 'held') return
		this.close()
		await materialiseHold(this.relay.ledger, this.call.requestId)
		await settlement()
	}

	/**
	 * Hands the hold to a task the upstream took (a video: stages/video-answer.ts): `adoption`
	 * records the task and makes the hold its own in one unit of work, and the task's end settles or
	 * returns it (relay/tasks/task-rows.ts). Only once, like settle, and only for a call an upstream
	 * answered; when the adoption fails the hold is returned here.
	 */
	async handOver(adoption: () => Promise<void>): Promise<void> {
		if (this.state !== 'held') return
		if (!this.answeredBy) throw new Error('a hold is handed to a task only once an upstream took it')
		this.close()
		try {
			await materialiseHold(this.relay.ledger, this.call.requestId)
			await adoption()
		} catch (error) {
			await voidCall(this.dependencies, this.relay, this.call, 'upstream_failed')
			throw error
		}
	}

	/** The key that answered, once an upstream did. */
	get answerer(): AnsweredBy | undefined {
		return this.answeredBy
	}

	/**
	 * Returns the hold in full: nothing billable reached the client. Only once; does nothing when
	 * nothing is held. Never throws: a failure is logged, and the reconciler frees the hold later.
	 */
	async void(reason: string): Promise<void> {
		if (this.state !== 'held') return
		this.close()
		await voidCall(this.dependencies, this.relay, this.call, reason)
	}
}

export async function hold(dependencies: Dependencies, relay: RelayServices, call: PricedCall): Promise<HeldCall> {
	const scope = new CallScope(dependencies, relay, call)
	await scope.reserve(call.holdAmount)
	const held = call as HeldCall
	held.scope = scope
	return held
}
