/**
 * The settle stage: how a held call ends, once its scope (hold.ts) says it may. Settling charges
 * the usage at the call's pricing through the ledger (to the source that holds it: a
 * subscription's windows or the wallet), writes the consume log (with the pricing, who paid, what
 * the call cost the operator on its channel, the channels tried, the first token's time, a local
 * count, how a stream ended, sensitive words) under the call's request id, and records the
 * channel's response time, the call's metrics, the tokens for token-a-minute limits and the
 * user's balance for the low-quota reminder. An empty answer (empty-output.ts) is charged so only
 * while `ChargeEmptyOutputs` is on; otherwise its hold is voided with a consume line of 0 quota that
 * says why, and it counts for the channel's time, the metrics and the limits like any other call.
 * Voiding returns the whole hold; it never throws.
 */
import type { Dependencies } from '@/dependencies'
import { costOfCall } from '@/billing/cost'
import { releaseHold, settle, voidHold } from '@/billing/holds'
import { quotaForUsage, type Pricing, type Usage } from '@/billing/price'
import { logLine } from '@shared/messages/logs'
import type { CallRecord } from '../call-metrics'
import type { RelayCaller } from '../caller'
import { SENSITIVE_MASK } from '../sensitive-words/words'
import type { RelayServices } from '../services'
import type { AffinityOutcome, CallAttempt } from './call'
import { EMPTY_OUTPUT_REASON } from './empty-output'
import type { RouteTarget } from './route'
import type { StreamEnd } from './stream-meter'

/** Who answered a call: the key, every attempt, and how the session's affinity went. */
export interface AnsweredBy {
	target: RouteTarget
	attempts: readonly CallAttempt[]
	affinity: AffinityOutcome | undefined
}

/** The subscription that paid a call, for its log line. */
export interface Funding {
	subscriptionId: number
	name: string
}

/** What the log of a call says about it, known before anything is held. */
export interface ScopedCall {
	requestId: string
	caller: RelayCaller
	/** The model the client asked for: billing always uses it. */
	model: string
	group: string
	pricing: Pricing
	stream: boolean
	/** `performance.now()` when the call arrived. */
	startedAt: number
	clientAddress: string
	/** Told what a settled call charged (the relay's Prometheus series). */
	metrics?: CallRecord
}

/** What happened to an answer that carried sensitive words: refused whole, cut in its stream, or masked. */
export interface SensitiveAnswer {
	words: string[]
	action: 'refused' | 'cut' | 'masked'
}

export interface SettleDetails {
	/** The tokens were counted by the gateway: the upstream reported no usage. */
	localCount: boolean
	firstTokenMs?: number
	end?: StreamEnd
	sensitive?: SensitiveAnswer
	/** The answer was empty (empty-output.ts): `ChargeEmptyOutputs` says whether it is charged. */
	emptyOutput?: boolean
}

const SENSITIVE_ACTIONS: Record<SensitiveAnswer['action'], string> = {
	refused: 'the answer was refused',
	cut: 'the stream was cut before the word',
	masked: `each word was replaced by ${SENSITIVE_MASK}`,
}

/**
 * Charges `usage`, logs the call and records the channel's time. Failures of the ledger propagate.
 * `heldFromWallet`: what the call's hold took from the wallet (undefined when a subscription holds it).
 * Answers whether the call was charged: false for an empty answer whose hold was returned.
 */
export async function settleCall(
	dependencies: Dependencies, relay: RelayServices, call: ScopedCall, answeredBy: AnsweredBy, usage: Usage, details: SettleDetails, funding?: Funding,
	heldFromWallet?: number,
): Promise<boolean> {
	const { target: { channel, keyIndex }, attempts, affinity } = answeredBy
	const tried = [...new Set(attempts.map((attempt) => attempt.channel))]
	const { pricing } = call
	const quotaPerUnit = dependencies.options.get('QuotaPerUnit')
	const actual = quotaForUsage(pricing, usage, quotaPerUnit)
	const useTimeMs = performance.now() - call.startedAt
	const other: Record<string, unknown> = pricing.kind === 'per_call'
		? { model_price: pricing.modelPrice, group_ratio: pricing.groupRatio, ...(pricing.callRatio !== undefined ? { call_ratio: pricing.callRatio } : {}) }
		: { model_ratio: pricing.modelRatio, completion_ratio: pricing.completionRatio, cache_ratio: pricing.cacheRatio, group_ratio: pricing.groupRatio }
	if (pricing.kind === 'per_token' && (usage.audioPromptTokens || usage.audioCompletionTokens)) {
		Object.assign(other, {
			audio_ratio: pricing.audioRatio ?? 1, audio_completion_ratio: pricing.audioCompletionRatio ?? 1,
			audio_input_tokens: usage.audioPromptTokens ?? 0, audio_output_tokens: usage.audioCompletionTokens ?? 0,
		})
	}
	Object.assign(other, {
		group: call.group,
		// The words an answer carried are for admins only: the caller's own log would otherwise tell what was withheld.
		// Which key answered, and how each attempt went, are for admins; how the session's affinity went is the caller's too.
		admin_info: {
			use_channel: tried, key_index: keyIndex, attempts,
			...(details.sensitive ? { sensitive_words: details.sensitive.words } : {}),
		},
		...(affinity ? { affinity } : {}),
		...(details.firstTokenMs !== undefined ? { frt: details.firstTokenMs } : {}),
		...(details.localCount ? { local_count_tokens: true } : {}),
		...(details.end && details.end !== 'completed' ? { stream_end: details.end } : {}),
		...(usage.cachedTokens ? { cache_tokens: usage.cachedTokens } : {}),
		...(details.sensitive ? { sensitive_action: details.sensitive.action } : {}),
		...(funding ? { plan_name: funding.name } : {}),
	})
	const userId = call.caller.user.id
	const charged = !details.emptyOutput || dependencies.options.get('ChargeEmptyOutputs')
	// An empty answer not charged says so on its line, in the reader's language (its `log_line`).
	const notCharged = charged ? undefined : logLine('call.empty_output')
	if (notCharged) Object.assign(other, { not_charged: true, not_charged_reason: EMPTY_OUTPUT_REASON }, notCharged.other)
	const cost = costOfCall(channel.cost, call.model, pricing, usage, quotaPerUnit)
	const log = dependencies.options.get('LogConsumeEnabled') ? {
		username: call.caller.user.username,
		tokenName: call.caller.token.name,
		modelName: call.model,
		group: call.group,
		promptTokens: usage.promptTokens,
		completionTokens: usage.completionTokens,
		useTime: Math.round(useTimeMs / 1000),
		isStream: call.stream,
		channelName: channel.name,
		ip: call.clientAddress,
		content: notCharged?.content ?? (details.sensitive ? `sensitive words in the answer (${SENSITIVE_ACTIONS[details.sensitive.action]})` : ''),
		other,
	} : undefined
	const outcome = charged
		? await settle(relay.ledger, { requestId: call.requestId, readBalance: relay.quotaReminder.wantsBalance(userId), heldFromWallet, actual, cost, channelId: channel.id, log })
		: undefined
	if (!charged) await releaseHold(relay.ledger, { requestId: call.requestId, reason: EMPTY_OUTPUT_REASON, channelId: channel.id, log, cost })
	relay.recordResponseTime(channel.id, Math.round(useTimeMs))
	call.metrics?.settled(channel.id, usage, charged ? actual : 0, details.firstTokenMs)
	relay.requestLimits.settled(call.caller, call.model, usage.promptTokens + usage.completionTokens)
	if (outcome?.settled && outcome.balance !== undefined) relay.quotaReminder.afterSettle(userId, outcome.balance)
	return charged
}

/** Returns the hold in full. Never throws: a failure is logged, and the reconciler frees the hold later. */
export async function voidCall(dependencies: Dependencies, relay: RelayServices, call: ScopedCall, reason: string): Promise<void> {
	await voidHold(relay.ledger, call.requestId, reason)
		.catch((error) => dependencies.logger.error('voiding a hold failed', { requestId: call.requestId, error: String(error) }))
}
