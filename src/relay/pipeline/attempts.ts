/**
 * Sends a call upstream, moving to channels not yet tried when one fails (design §5.4):
 * at most `RetryTimes` retries, on connection errors, timeouts and statuses that say nothing about
 * the request itself. A pinned channel is tried alone. A preferred channel (the one that keeps the
 * conversation a request continues) is only a preference: it is tried first when it is among the
 * channels routing would choose from for the caller's group and model, and retries go on as usual.
 */
import type { Dependencies } from '@/dependencies'
import type { RoutableChannel } from '@/db/stores/channels'
import type { OpenedResponse } from '@/lib/outbound'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { RelayError, relayErrors, wordedRelayError } from '../errors'
import { AdaptorFetchError } from '../providers/types'
import { scrubSecrets, upstreamMessageOf } from '../upstream/messages'
import { canTakeKey, ChannelUnfitError, channelCanTake, openUpstream, type OpenedUpstream, type UpstreamCall } from '../upstream/open'
import { UNREACHABLE } from '../call-metrics'
import { disableReason } from '../routing/channel-health'
import type { RelayServices } from '../services'

/** 504/524 mean the upstream already spent the time; the rest are the request's own fault. */
const NEVER_RETRY = new Set([400, 408, 413, 415, 422, 504, 524])
const ERROR_BODY_LIMIT = 64 * 1024

/** The upstream that answered (with a 2xx status), how to read its answer, and every channel tried. */
export interface UpstreamAnswer {
	channel: RoutableChannel
	opened: OpenedUpstream
	tried: number[]
}

interface AttemptPlan extends UpstreamCall {
	group: string
	pinnedChannelId: number | undefined
	/** Tried first when routing would choose among it for the group and model; otherwise ignored. */
	preferredChannelId?: number
}

/** A token or signing service refusing the channel's key with one of these means the key is wrong. */
const CREDENTIAL_STATUSES = new Set([400, 401, 403])
const UNAUTHORIZED = 401

const credentialsRejected = () => wordedRelayError(502, RELAY_MESSAGES.credentialsRejected, 'upstream_error', 'upstream_auth_failed')

/** A channel's `status_code_mapping` rewrites the upstream status before anything else sees it. */
function mappedStatus(channel: RoutableChannel, status: number) {
	const mapped = Number(channel.statusCodeMapping[String(status)])
	return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status
}

/** The error the client sees, and the upstream's own (scrubbed) message for the channel's record. */
async function upstreamError(channel: RoutableChannel, response: OpenedResponse, status: number) {
	const text = await response.text().then((body) => body.slice(0, ERROR_BODY_LIMIT), () => '')
	const upstreamMessage = scrubSecrets(upstreamMessageOf(text) ?? `upstream error ${response.status}`, channel)
	// The upstream refusing the gateway's own credentials is not the client's key being wrong.
	const error = status === 401 || status === 403
		? credentialsRejected()
		: new RelayError(status, upstreamMessage, status === 429 ? 'rate_limit_error' : 'upstream_error', `upstream_${status}`)
	return { error, upstreamMessage }
}

/**
 * A channel that cannot take the call (channelCanTake) is skipped without counting as an attempt,
 * so a misconfigured channel never uses up the retries other channels would get. Every pass adds
 * a channel to `tried`, so the loop ends.
 */
export async function sendWithRetries(dependencies: Dependencies, relay: RelayServices, plan: AttemptPlan): Promise<UpstreamAnswer> {
	const tried: number[] = []
	const retries = plan.pinnedChannelId ? 0 : dependencies.options.get('RetryTimes')
	let lastError: RelayError | undefined
	const call = { endpoint: plan.request.endpoint, stream: plan.stream, model: plan.model, native: plan.native?.format, nativeRequired: plan.native?.required !== undefined }
	const takes = { accepts: (candidate: RoutableChannel) => channelCanTake(candidate, call), cacheKey: canTakeKey(call) }
	for (let attempts = 0; attempts <= retries;) {
		const preferred = tried.length === 0 && plan.preferredChannelId !== undefined
			? relay.routing.offered(plan.group, plan.model, plan.preferredChannelId, takes)
			: undefined
		const channel = plan.pinnedChannelId
			? relay.routing.channel(plan.pinnedChannelId)
			: preferred ?? relay.routing.pick(plan.group, plan.model, new Set(tried), takes)
		if (!channel) {
			if (plan.pinnedChannelId) throw relayErrors.channelDisabled()
			break
		}
		tried.push(channel.id)
		let opened: OpenedUpstream
		try {
			opened = await openUpstream(dependencies, relay, channel, plan)
		} catch (error) {
			if (error instanceof ChannelUnfitError) {
				lastError ??= relayErrors.noChannel(plan.group, plan.model)
				if (plan.pinnedChannelId) break
				continue
			}
			attempts++
			relay.metrics.upstreamError(channel.id, error instanceof AdaptorFetchError ? error.status : UNREACHABLE)
			if (error instanceof AdaptorFetchError && CREDENTIAL_STATUSES.has(error.status)) {
				const reason = disableReason(dependencies.options, channel.autoBan, UNAUTHORIZED, error.message)
				if (reason) await relay.disableChannel(channel.id, reason)
				lastError = credentialsRejected()
				continue
			}
			// A request the channel's wire format cannot express (token arrays to a text-only API) is the client's to change.
			if (error instanceof RelayError && error.status < 500) throw error
			if (plan.signal.aborted) throw error
			dependencies.logger.warn('upstream request failed', { channelId: channel.id, reason: String((error as Error).name ?? error) })
			lastError = relayErrors.upstreamUnavailable()
			continue
		}
		attempts++
		const { response } = opened
		if (response.ok) return { channel, opened, tried }
		const status = mappedStatus(channel, response.status)
		relay.metrics.upstreamError(channel.id, status)
		const { error, upstreamMessage } = await upstreamError(channel, response, status)
		const reason = disableReason(dependencies.options, channel.autoBan, status, upstreamMessage)
		if (reason) await relay.disableChannel(channel.id, reason)
		lastError = error
		if (NEVER_RETRY.has(status)) break
	}
	throw lastError ?? relayErrors.noChannel(plan.group, plan.model)
}
