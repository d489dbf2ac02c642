/**
 * Submitting one async task (docs/architecture.md#the-task-pipeline): admitted and priced by the stages' rules (the token's model limits,
 * the call's group, the model's pricing); the route stage's key router chooses the channel and
 * one of its keys among those whose type takes the platform's tasks, as for any call (per-key
 * health, cooling and disabled keys, the group's policy) — a follow-up goes to its original
 * task's channel, and to the key that submitted it while that key is usable. The per-call price is
 * held in the call's scope — the hold stage's `CallScope`, so the same funding sources as any call
 * (a subscription that covers the task's model, else the wallet) and the same refusals — and the
 * upstream is asked once, with the chosen key; what it answers teaches that key's health as in
 * the send stage (a 401/403 auto-disables the key). A refusal returns the hold with a log line the
 * user sees; an acceptance hands the hold to the task (`CallScope.handOver`, task-rows.ts), the
 * task recording the key that submitted it (its polls and follow-ups use it).
 *
 * A submit is never retried, on another channel or another key: an upstream that took the task but
 * answered late would run it twice. Nor does a client that hangs up abort it: the task is recorded either way.
 */
import { storedLine } from '@shared/messages/logs'
import type { Dependencies } from '@/dependencies'
import { costOfCall } from '@/billing/cost'
import { quotaForUsage } from '@/billing/price'
import { returnTaskHold } from '@/billing/task-holds'
import { newRequestId } from '@/lib/crypto'
import { nowSeconds } from '@/lib/clock'
import { relayErrors } from '../errors'
import { noChannelError } from '../routing/groups'
import type { RoutableChannel } from '../routing/routing-table'
import { UNREACHABLE } from '../call-metrics'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import { loadAdaptor, servesTasks } from '../providers/registry'
import type { TaskAdaptor, TaskPlatform, TaskSubmitOutcome } from '../providers/types'
import { scrubSecrets } from '../upstream/messages'
import { allowModel, callGroup } from '../stages/admit'
import type { CallAttempt, ChannelAcceptance } from '../stages/call'
import { CallScope } from '../stages/hold'
import { FREE, pricingOf } from '../stages/price'
import { keyedChannel, keyTargetOf, type RouteTarget } from '../stages/route'
import { keyAnswered, keyRefused, keyUnreachable, mappedStatus } from '../stages/send'
import type { TaskBilling } from './task-rows'
import { taskErrors } from './task-errors'

/** new-api's limit for a submit; a queueing upstream answers long before. */
const SUBMIT_TIMEOUT_MS = 60_000
const BAD_GATEWAY = 502

export interface TaskCall {
	platform: TaskPlatform
	caller: RelayCaller
	/** `mj_<action>`, `swap_face`, `suno_music`, `suno_lyrics`: the price and the channels' models are looked up by it. */
	model: string
	clientAddress: string
	/** A follow-up's original channel: only it may take the call. */
	channelId?: number
	/** The key of the original channel that submitted the original task: taken while it is usable. */
	keyIndex?: number
}

/** A task ready to send: its channel, group and price, and its hold (`amount` 0: a free task, nothing held). */
export interface PreparedTask {
	requestId: string
	call: TaskCall
	/** The channel and key the router chose. */
	target: RouteTarget
	/** The target's channel carrying the chosen key. */
	channel: RoutableChannel
	/** The submit's one attempt, once sent (for the log). */
	attempts: CallAttempt[]
	adaptor: TaskAdaptor
	billing: TaskBilling
	amount: number
	/** What the task costs the operator on its channel (quota); undefined: unknown. */
	cost: number | undefined
	submittedAt: number
	/** The hold's scope; undefined for a free task. */
	scope: CallScope | undefined
}

/**
 * The router's target for the task's one attempt. A follow-up (`channelId`) or a token pinned to a
 * channel goes to that channel only; the router chooses among its usable keys (the follow-up's own
 * key first).
 */
function routeTask(dependencies: Dependencies, relay: RelayServices, call: TaskCall, group: string, acceptance: ChannelAcceptance): RouteTarget {
	const forced = call.channelId ?? call.caller.pinnedChannelId
	if (forced !== undefined) {
		const channel = relay.routing.channel(forced)
		if (call.channelId !== undefined && (!channel || !acceptance.accepts(channel))) throw taskErrors.channelUnavailable()
		if (!channel) throw relayErrors.channelDisabled()
		if (!acceptance.accepts(channel)) throw relayErrors.endpointUnsupported(`${call.platform} tasks`, false)
	}
	const caller = forced === undefined ? call.caller : { ...call.caller, pinnedChannelId: forced }
	const target = relay.router.route({ caller, group, model: call.model, preferredChannelId: call.channelId, preferredKeyIndex: call.keyIndex, acceptance }, [])
	if (target) return target
	if (call.channelId !== undefined) throw taskErrors.channelUnavailable()
	throw forced !== undefined ? relayErrors.channelDisabled() : noChannelError(dependencies.options, relay.routing, call.caller, group, call.model)
}

/**
 * Checks the caller may use the model, picks the channel, prices the task and takes its hold.
 * Throws a RelayError (nothing held) when any of that fails.
 */
export async function prepareTask(dependencies: Dependencies, relay: RelayServices, call: TaskCall): Promise<PreparedTask> {
	const { caller, model } = call
	// Admitted and priced by the stages' own rules (stages/admit.ts, stages/price.ts).
	allowModel(caller, model)
	await relay.routing.ready()
	const acceptance: ChannelAcceptance = { accepts: (channel) => servesTasks(channel.type, call.platform), cacheKey: `tasks:${call.platform}` }
	const group = callGroup(dependencies, relay, caller, model, acceptance)
	const target = routeTask(dependencies, relay, call, group, acceptance)
	const { channel } = target
	const found = pricingOf(dependencies, { model, group, caller })
	const pricing = found === FREE ? undefined : found
	if (pricing && pricing.kind !== 'per_call') throw taskErrors.perCallOnly(model)
	const modelPrice = pricing?.modelPrice ?? 0
	const groupRatio = pricing?.groupRatio ?? 1
	const quotaPerUnit = dependencies.options.get('QuotaPerUnit')
	const amount = pricing ? quotaForUsage(pricing, { promptTokens: 0, completionTokens: 0 }, quotaPerUnit) : 0
	const requestId = newRequestId()
	let scope: CallScope | undefined
	if (amount > 0 && pricing) {
		scope = new CallScope(dependencies, relay, { requestId, caller, model, group, pricing, stream: false, startedAt: performance.now(), clientAddress: call.clientAddress })
		await scope.reserve(amount)
	}
	return {
		scope,
		requestId: amount > 0 ? requestId : '',
		call,
		target,
		channel: keyedChannel(target),
		attempts: [],
		adaptor: (await loadAdaptor(channel.type))!.tasks!,
		billing: {
			username: caller.user.username, token_id: caller.token.id, token_name: caller.token.name, group, model,
			model_price: modelPrice, group_ratio: groupRatio, channel_name: channel.name, ip: call.clientAddress,
			key_index: target.keyIndex,
			...(scope?.funding ? { plan_name: scope.funding.name } : {}),
		},
		amount,
		cost: pricing ? costOfCall(channel.cost, model, pricing, { promptTokens: 0, completionTokens: 0 }, quotaPerUnit) : undefined,
		submittedAt: nowSeconds(),
	}
}

/**
 * Sends the submit upstream, once, with the chosen key, and reads its answer. A refusal's
 * description comes back scrubbed of the channel's secrets and whereabouts; an upstream that
 * cannot be reached is a refusal too. An error status goes through the channel's
 * `status_code_mapping` first. The key learns what it did as in the send stage: a refusal
 * is kept as its last error and auto-disables it as for chat calls (a 401/403, or a configured
 * keyword, when the channel's auto-ban is on).
 */
export async function sendTask(dependencies: Dependencies, relay: RelayServices, prepared: PreparedTask, path: string, body: Record<string, unknown>): Promise<TaskSubmitOutcome> {
	const { channel, target } = prepared
	const upstream = prepared.adaptor.submitRequest(channel, path, body)
	const record = (outcome: CallAttempt['outcome']) => prepared.attempts.push({ channel: channel.id, key: target.keyIndex, outcome })
	const finished = relay.keyHealth.started(keyTargetOf(target))
	const started = performance.now()
	let retryAfter: string | null
	let outcome: TaskSubmitOutcome
	try {
		const response = await relay.outbound(upstream.url, {
			method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body, signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
		})
		retryAfter = response.headers.get('retry-after')
		outcome = prepared.adaptor.readSubmit(response.status, await response.text())
		// As in the send stage, the upstream's own status says whether the task was taken, and the
		// mapped one is what the attempt's record, the key and the client see.
		if (!outcome.accepted && !response.ok && outcome.status === response.status) outcome = { ...outcome, status: mappedStatus(channel, response.status) }
	} catch (error) {
		const timedOut = error instanceof Error && error.name === 'TimeoutError'
		record(timedOut ? 'timeout' : 'connection')
		relay.metrics.upstreamError(channel.id, UNREACHABLE)
		keyUnreachable(relay, target)
		dependencies.logger.warn('task submit failed', { channelId: channel.id, key: target.keyIndex, reason: String((error as Error).name ?? error) })
		return { accepted: false, status: BAD_GATEWAY, code: 'bad_gateway', description: taskErrors.unanswered().message, properties: {} }
	} finally {
		finished()
	}
	if (outcome.accepted) {
		record('ok')
		keyAnswered(relay, target, started)
		return outcome
	}
	record(outcome.status)
	const description = scrubSecrets(outcome.description, channel)
	await keyRefused(dependencies, relay, target, outcome.status, description, retryAfter)
	return { ...outcome, description }
}

/** Returns the hold of a task the upstream refused, with a log line the user sees: the scope ends through that unit of work. */
export async function returnRefusedHold(relay: RelayServices, prepared: PreparedTask, description: string): Promise<void> {
	await prepared.scope?.settleWith(async () => {
		await relay.ledger.transaction((tx, tables) => returnTaskHold(tx, tables, prepared.requestId, 'upstream_refused',
			(quota) => storedLine('task.refused', { model: prepared.call.model, reason: description, quota })))
	})
}

/**
 * Records a task the upstream took: `record` inserts its row and makes the hold the task's in one
 * unit of work (task-rows.ts), through the scope's hand-over, which returns the hold when it fails.
 */
export async function recordAccepted(prepared: PreparedTask, record: () => Promise<unknown>): Promise<void> {
	const { scope, target, attempts } = prepared
	if (!scope) {
		await record()
		return
	}
	scope.answered(target, attempts, undefined)
	await scope.handOver(async () => {
		await record()
	})
}

/** Returns the hold of a task that could not be recorded (a database failure): nothing was billed. Never throws. */
export async function abandonHold(prepared: PreparedTask): Promise<void> {
	await prepared.scope?.void('upstream_failed')
}
