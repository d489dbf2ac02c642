/**
 * The whole life of one call's hold (design §4): reserve, then exactly one of settle or void. Every
 * exit of a call — an answer, an upstream error, a thrown error, a stream that completes, is cut,
 * stops at a sensitive word or loses its client — ends through `settle` or `void`; both are
 * idempotent (the first one wins, later calls do nothing), so a path that might end the call twice
 * cannot charge or refund twice, and the pipeline's last-resort `void` after a failure is always safe.
 * Settling writes the consume log and the channel's response time with the same request id.
 */
import type { Dependencies } from '@/dependencies'
import type { RoutableChannel } from '@/db/stores/channels'
import { InsufficientQuotaError, reserve, settle, voidHold } from '@/billing/holds'
import { quotaForUsage, type Pricing, type Usage } from '@/billing/price'
import { relayErrors } from '../errors'
import type { CallRecord } from '../call-metrics'
import type { RelayServices } from '../services'
import { SENSITIVE_MASK } from '../sensitive-words/words'
import type { StreamEnd } from './stream-meter'
import type { RelayCaller } from '../edge/token-auth'

/** What the log of a call says about it, known before anything is held. */
interface ScopedCall {
	requestId: string
	caller: RelayCaller
	/** The model the client asked for: billing always uses it (design §5). */
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

interface SettleDetails {
	/** The tokens were counted by the gateway: the upstream reported no usage. */
	localCount: boolean
	firstTokenMs?: number
	end?: StreamEnd
	sensitive?: SensitiveAnswer
}

const SENSITIVE_ACTIONS: Record<SensitiveAnswer['action'], string> = {
	refused: 'the answer was refused',
	cut: 'the stream was cut before the word',
	masked: `each word was replaced by ${SENSITIVE_MASK}`,
}

type HoldState = 'none' | 'held' | 'closed'

export class CallScope {
	private state: HoldState = 'none'
	private answeredBy: { channel: RoutableChannel; tried: number[] } | undefined

	constructor(private readonly dependencies: Dependencies, private readonly relay: RelayServices, readonly call: ScopedCall) {}

	/** Takes the hold; refuses the call (403, in the ledger's words) when the user or the token cannot cover it. */
	async reserve(amount: number): Promise<void> {
		if (this.state !== 'none') throw new Error('a call reserves its hold once')
		const { requestId, caller } = this.call
		try {
			await reserve(this.relay.ledger, {
				requestId, userId: caller.user.id, tokenId: caller.token.id, tokenLimited: !caller.token.unlimited, amount, node: this.relay.nodeInstance,
			})
		} catch (error) {
			if (error instanceof InsufficientQuotaError) throw error.owner === 'user' ? relayErrors.insufficientUserQuota() : relayErrors.insufficientTokenQuota()
			throw error
		}
		this.state = 'held'
	}

	/** The channel that answered and every channel tried, for the log; known once an upstream answered. */
	answered(channel: RoutableChannel, tried: number[]) {
		this.answeredBy = { channel, tried }
	}

	/** Whether the hold is still open: neither settled nor voided. */
	get open() {
		return this.state === 'held'
	}

	/**
	 * Charges `usage` at the call's pricing, logs the call and records the channel's time. Only once,
	 * and only for a call an upstream answered (`answered`). Failures of the ledger propagate.
	 */
	async settle(usage: Usage, details: SettleDetails): Promise<void> {
		if (this.state !== 'held') return
		if (!this.answeredBy) throw new Error('a call is settled only once an upstream answered it')
		this.state = 'closed'
		const { dependencies, relay, call } = this
		const { channel, tried } = this.answeredBy
		const { pricing } = call
		const actual = quotaForUsage(pricing, usage, dependencies.options.get('QuotaPerUnit'))
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
			admin_info: { use_channel: tried, ...(details.sensitive ? { sensitive_words: details.sensitive.words } : {}) },
			...(details.firstTokenMs !== undefined ? { frt: details.firstTokenMs } : {}),
			...(details.localCount ? { local_count_tokens: true } : {}),
			...(details.end && details.end !== 'completed' ? { stream_end: details.end } : {}),
			...(usage.cachedTokens ? { cache_tokens: usage.cachedTokens } : {}),
			...(details.sensitive ? { sensitive_action: details.sensitive.action } : {}),
		})
		const userId = call.caller.user.id
		const outcome = await settle(relay.ledger, {
			requestId: call.requestId,
			readBalance: relay.quotaReminder.wantsBalance(userId),
			actual,
			channelId: channel.id,
			log: dependencies.options.get('LogConsumeEnabled') ? {
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
				content: details.sensitive ? `sensitive words in the answer (${SENSITIVE_ACTIONS[details.sensitive.action]})` : '',
				other,
			} : undefined,
		})
		relay.recordResponseTime(channel.id, Math.round(useTimeMs))
		call.metrics?.settled(channel.id, usage, actual, details.firstTokenMs)
		if (outcome.settled && outcome.balance !== undefined) relay.quotaReminder.afterSettle(userId, outcome.balance)
	}

	/**
	 * Returns the hold in full: nothing billable reached the client. Only once; does nothing when
	 * nothing is held. Never throws: a failure is logged, and the reconciler frees the hold later.
	 */
	async void(reason: string): Promise<void> {
		if (this.state !== 'held') return
		this.state = 'closed'
		await voidHold(this.relay.ledger, this.call.requestId, reason)
			.catch((error) => this.dependencies.logger.error('voiding a hold failed', { requestId: this.call.requestId, error: String(error) }))
	}
}
