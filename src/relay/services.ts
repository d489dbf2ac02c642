/** What the relay needs beyond the app's dependencies: the routing table, the router, the ledger's executor, the way upstream… */
import type { StatusReason } from '@shared/messages/channel-status'
import type { Executor } from '@/billing/batcher'
import type { QuotaReminder } from '@/billing/quota-reminder'
import type { UpstreamFetch } from './upstream/open'
import type { BodyGate } from './edge/read-body'
import type { RelayMetrics } from './call-metrics'
import type { RequestLimits } from './edge/request-limits'
import type { RoutingTable } from './routing/routing-table'
import type { SensitiveWords } from './sensitive-words/words'
import type { Router } from './stages/route'
import type { RelayCaller } from './caller'
import type { TokenAuthenticator } from './edge/token-auth'
import type { ConcurrencyLimits } from './edge/concurrency-limits'
import type { KeyOutcomeRecorder } from '@/db/stores/key-outcomes'
import type { KeyTarget } from '@/lib/session-affinity'
import type { KeyHealth } from './router/key-health'
import type { ResponseCacheStore } from './response-cache/store'

export interface RelayServices {
	routing: RoutingTable
	/** Where each attempt of a call goes (stages/route.ts): the one place a choice of upstream is made. */
	router: Router
	authenticate: TokenAuthenticator
	/** Runs ledger work; the batching executor groups concurrent calls' writes. */
	ledger: Executor
	/** The outbound client every upstream call goes through, answering bodies as guarded readers. */
	outbound: UpstreamFetch
	/** Takes a channel out after an upstream error (status 3, with its reason). */
	disableChannel(channelId: number, reason: StatusReason): Promise<void>
	/** Takes one key out after an upstream error (auto-disabled, with its reason); its channel too when it was the last. */
	disableKey(key: KeyTarget, reason: StatusReason): Promise<void>
	/** Each key's cooldowns, failures, calls in flight and first-byte times (router/key-health.ts), cooldowns shared between nodes. */
	keyHealth: KeyHealth
	/** Each key's last error and response time, written now and then. */
	keyOutcomes: KeyOutcomeRecorder
	/** Remembers how long a channel took (written to `channels.response_time` now and then). */
	recordResponseTime(channelId: number, milliseconds: number): void
	/** Identifies this process in `quota_holds.node`. */
	nodeInstance: string
	/** The sensitive-word automaton and the options that say when it checks prompts and answers. */
	sensitiveWords: SensitiveWords
	/** Told every settled call's balance; mails a user who fell below QuotaRemindThreshold, off the call's path. */
	quotaReminder: QuotaReminder
	/** The relay's Prometheus series (`/metrics`). */
	metrics: RelayMetrics
	/** Request and token rate limits of tokens, users, groups and models, and new-api's per-user ones (ModelRequestRateLimit*). */
	requestLimits: RequestLimits
	/** Calls in flight at once of tokens, users, groups and models (`concurrency_limit`). */
	concurrency: ConcurrencyLimits
	/** How much of a body this caller may send, and whether a large one is parsed for them (edge/read-body.ts). */
	bodyGate(caller: RelayCaller): BodyGate
	/** Where the response cache keeps answers (stages/response-cache.ts): Redis when configured, else memory. */
	responseCache: ResponseCacheStore
}
