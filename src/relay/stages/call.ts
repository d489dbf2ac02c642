/**
 * One call's shared state, as it passes from stage to stage (index.ts): the edge starts it
 * (`CallStart`), and each stage adds what it decided to the same object — admit the checked request
 * and where it may go, price the pricing and the hold's amount, hold the call's scope — so a later
 * stage reads typed fields rather than values captured in closures, and no stage copies the call.
 */
import type { Pricing } from '@/billing/price'
import type { PromptRequest } from '@/billing/tokenizer'
import type { CallRecord } from '../call-metrics'
import type { RelayCaller } from '../caller'
import type { CanonicalRequest, ConvertedRequest } from '../formats/canonical'
import type { WireFormat } from '../formats/events'
import type { OpenAIRequest } from '../formats/openai/requests'
import type { ServiceCall } from '../providers/registry'
import type { NativeRequest } from '../providers/types'
import type { RoutableChannel } from '../routing/routing-table'
import type { SessionKey, SessionSource } from '../router/session-key'
import type { CallScope } from './hold'

/** What the edge hands the stages: who calls, the canonical request, and what the edge knows of the HTTP call. */
export interface CallStart {
	requestId: string
	/** Authenticated by the edge (a token), or known without one (the playground's session user). */
	caller: RelayCaller
	/** The canonical request as the client format converted it, not yet checked. */
	request: ConvertedRequest
	/**
	 * A channel to try first (the one keeping the conversation a request continues): only a
	 * preference, taken when routing would choose among it for the caller's group and model.
	 */
	preferredChannelId?: number
	/** The key of the preferred channel to try first (the one that keeps the response continued). */
	preferredKeyIndex?: number
	/** The conversation the call belongs to (router/session-key.ts), when it names one: affinity keeps it on one key. */
	session?: SessionKey
	/** Aborts when the client goes away. */
	signal: AbortSignal
	clientAddress: string
	/** `performance.now()` when the call arrived. */
	startedAt: number
	/** The call's metrics record: what it settled is added to it. */
	metrics?: CallRecord
	/** The wire format the client's format writes as it came (ClientFormat.passThroughWire): a stream in it may pass through unread. */
	passThroughWire?: WireFormat
	/** The client asked for a fresh answer (`Cache-Control: no-cache`): the response cache neither answers nor keeps it. */
	bypassResponseCache?: boolean
}

/** One attempt of a call, for the log: the channel, the key's `#index`, and what came of it. */
export interface CallAttempt {
	channel: number
	key: number
	/** The upstream's status, `ok` for the answer, or what kept one from coming. */
	outcome: number | 'ok' | 'timeout' | 'connection'
}

/**
 * How the call's session affinity went, for the log: its key served it (`hit`), it had none yet
 * (`new`), or its key could not and it moved to the one that answered (`moved`: the key was cooling
 * down, is no longer usable, or failed this call).
 */
export type AffinityOutcome = { state: 'hit' | 'new'; source: SessionSource } | { state: 'moved'; reason: 'cooling' | 'unusable' | 'failed'; source: SessionSource }

/** Which channels can take a call, and the key the routing table keeps that answer under (routing-table.ts). */
export interface ChannelAcceptance {
	accepts(channel: RoutableChannel): boolean
	cacheKey: string
}

/** Admitted (admit.ts): the request checked, and what a channel must be able to do to take it. */
export interface AdmittedCall extends CallStart {
	request: CanonicalRequest<OpenAIRequest>
	/** The model the client asked for: billing always uses it. */
	model: string
	stream: boolean
	/** The client's own request when it may pass through: the request's, unless answers are checked for sensitive words. */
	native: NativeRequest | undefined
	/** What the call asks of a channel type (providers/registry.ts). */
	service: ServiceCall
	/** The channels whose type and model mapping can take the call. */
	acceptance: ChannelAcceptance
	/** The group the call is routed and billed in. */
	group: string
}

/** Priced (price.ts). */
export interface PricedCall extends AdmittedCall {
	pricing: Pricing
	/** What is counted of the request for the hold and for a local count of an answer that reports no usage. */
	prompt: PromptRequest
	/** The quota the hold takes. */
	holdAmount: number
}

/** Held (hold.ts): its hold taken, in the scope through which it ends exactly once. */
export interface HeldCall extends PricedCall {
	scope: CallScope
}
