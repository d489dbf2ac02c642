/**
 * Submitting one async task (docs/architecture.md#the-task-pipeline): admitted and priced by the stages' rules (the token's model limits,
 * the call's group, the model's pricing); the group and the task's model pick a channel whose type
 * takes the platform's tasks (a follow-up goes to its original task's channel), the
 * per-call price is held in the call's scope — the hold stage's `CallScope`, so the same funding
 * sources as any call (a subscription that covers the task's model, else the wallet) and the same
 * refusals — and the upstream is asked once. A refusal returns the hold with a log line the user
 * sees; an acceptance hands the hold to the task (`CallScope.handOver`, task-rows.ts).
 *
 * A submit is never retried on another channel: an upstream that took the task but answered late
 * would run it twice. Nor does a client that hangs up abort it: the task is recorded either way.
 */
import { storedLine } from '@shared/messages/logs'
import type { Dependencies } from '@/dependencies'
import { costOfCall } from '@/billing/cost'
import { quotaForUsage } from '@/billing/price'
import { returnTaskHold } from '@/billing/task-holds'
import { newRequestId } from '@/lib/crypto'
import { nowSeconds } from '@/lib/clock'
import { relayErrors } from '../errors'
import { disableReason } from '../routing/channel-health'
import type { RoutableChannel } from '../routing/routing-table'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import { adaptorFor, servesTasks } from '../providers/registry'
import type { TaskAdaptor, TaskPlatform, TaskSubmitOutcome } from '../providers/types'
import { scrubSecrets } from '../upstream/messages'
import { allowModel, callGroup } from '../stages/admit'
import { CallScope } from '../stages/hold'
import { FREE, pricingOf } from '../stages/price'
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
}

/** A task ready to send: its channel, group and price, and its hold (`amount` 0: a free task, nothing held). */
export interface PreparedTask {
	requestId: string
	call: TaskCall
	channel: RoutableChannel
	adaptor: TaskAdaptor
	billing: TaskBilling
	amount: number
	/** What the task costs the operator on its channel (quota); undefined: unknown. */
	cost: number | undefined
	submittedAt: number
	/** The hold's scope; undefined for a free task. */
	scope: CallScope | undefined
}

function chooseChannel(relay: RelayServices, call: TaskCall, group: string): RoutableChannel {
	const takes = (channel: RoutableChannel) => servesTasks(channel.type, call.platform)
	const forced = call.channelId ?? call.caller.pinnedChannelId
	if (forced !== undefined) {
		const channel = relay.routing.channel(forced)
		if (call.channelId !== undefined && (!channel || !takes(channel))) throw taskErrors.channelUnavailable()
		if (!channel) throw relayErrors.channelDisabled()
		if (!takes(channel)) throw relayErrors.endpointUnsupported(`${call.platform} tasks`, false)
		return channel
	}
	const channel = relay.routing.pick(group, call.model, new Set(), { accepts: takes })
	if (!channel) throw relayErrors.noChannel(group, call.model)
	return channel
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
	const group = callGroup(dependencies, relay, caller, model, { accepts: (channel) => servesTasks(channel.type, call.platform) })
	const channel = chooseChannel(relay, call, group)
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
		channel,
		adaptor: adaptorFor(channel.type)!.tasks!,
		billing: {
			username: caller.user.username, token_id: caller.token.id, token_name: caller.token.name, group, model,
			model_price: modelPrice, group_ratio: groupRatio, channel_name: channel.name, ip: call.clientAddress,
			...(scope?.funding ? { plan_name: scope.funding.name } : {}),
		},
		amount,
		cost: pricing ? costOfCall(channel.cost, model, pricing, { promptTokens: 0, completionTokens: 0 }, quotaPerUnit) : undefined,
		submittedAt: nowSeconds(),
	}
}

/**
 * Sends the submit upstream and reads its answer. A refusal's description comes back scrubbed of
 * the channel's secrets and whereabouts; an upstream that cannot be reached is a refusal too.
 * Auto-disable applies as for chat calls (a 401, or a configured keyword).
 */
export async function sendTask(dependencies: Dependencies, relay: RelayServices, prepared: PreparedTask, path: string, body: Record<string, unknown>): Promise<TaskSubmitOutcome> {
	const { channel } = prepared
	const upstream = prepared.adaptor.submitRequest(channel, path, body)
	let outcome: TaskSubmitOutcome
	try {
		const response = await relay.outbound(upstream.url, {
			method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body, signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
		})
		outcome = prepared.adaptor.readSubmit(response.status, await response.text())
	} catch (error) {
		dependencies.logger.warn('task submit failed', { channelId: channel.id, reason: String((error as Error).name ?? error) })
		return { accepted: false, status: BAD_GATEWAY, code: 'bad_gateway', description: taskErrors.unanswered().message, properties: {} }
	}
	if (outcome.accepted) return outcome
	const description = scrubSecrets(outcome.description, channel)
	const reason = disableReason(dependencies.options, channel.autoBan, outcome.status, description)
	if (reason) await relay.disableChannel(channel.id, reason)
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
	const { scope, channel } = prepared
	if (!scope) {
		await record()
		return
	}
	scope.answered({ channel, keyIndex: 0, key: channel.key }, [{ channel: channel.id, key: 0, outcome: 'ok' }], undefined)
	await scope.handOver(async () => {
		await record()
	})
}

/** Returns the hold of a task that could not be recorded (a database failure): nothing was billed. Never throws. */
export async function abandonHold(prepared: PreparedTask): Promise<void> {
	await prepared.scope?.void('upstream_failed')
}
