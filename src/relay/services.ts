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
	/** The per-user request rate limits (ModelRequestRateLimit*). */
	requestLimits: RequestLimits
	/** How much of a body this caller may send, and whether a large one is parsed for them (edge/read-body.ts). */
	bodyGate(caller: RelayCaller): BodyGate
}
