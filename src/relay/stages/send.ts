/**
 * The send stage: sends a held call upstream, attempt after attempt, until an upstream answers
 * with a 2xx status. Before each attempt it asks the route stage (route.ts) where to go, never
 * twice to the same target; it opens the upstream (upstream/open.ts) and classifies what went
 * wrong: a target that cannot take the call (its type or its model mapping) is skipped without
 * counting; connection errors, timeouts and statuses that say nothing about the request itself are
 * retried, at most `RetryTimes` times (none for a pinned channel); statuses that are the request's
 * fault (and 504/524: the upstream already spent the time) end the call; a token or signing service
 * refusing the channel's key, an upstream 401 or an error matching `AutomaticDisableKeywords` takes
 * the channel out when its auto-ban is on (routing/channel-health.ts). Every failed attempt is
 * counted in the relay's metrics. Answers the upstream that answered and every channel tried;
 * throws the last failure as a RelayError.
 */
import type { Dependencies } from '@/dependencies'
import type { OpenedResponse } from '@/lib/outbound'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { UNREACHABLE } from '../call-metrics'
import { RelayError, relayErrors, wordedRelayError } from '../errors'
import { AdaptorFetchError } from '../providers/types'
import { disableReason } from '../routing/channel-health'
import type { RoutableChannel } from '../routing/routing-table'
import type { RelayServices } from '../services'
import { scrubSecrets, upstreamMessageOf } from '../upstream/messages'
import { ChannelUnfitError, openUpstream, type OpenedUpstream } from '../upstream/open'
import type { HeldCall } from './call'
import type { RouteTarget } from './route'

/** 504/524 mean the upstream already spent the time; the rest are the request's own fault. */
const NEVER_RETRY = new Set([400, 408, 413, 415, 422, 504, 524])
const ERROR_BODY_LIMIT = 64 * 1024

/** The upstream that answered (with a 2xx status), how to read its answer, and every channel tried. */
export interface UpstreamAnswer {
	target: RouteTarget
	opened: OpenedUpstream
	/** The ids of the channels tried, the one that answered last. */
	tried: number[]
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
 * Every pass adds a target to `tried`, and the router never answers a tried one, so the loop ends.
 * Records who answered on the call's scope, for the log.
 */
export async function send(dependencies: Dependencies, relay: RelayServices, call: HeldCall): Promise<UpstreamAnswer> {
	const tried: RouteTarget[] = []
	const pinned = call.caller.pinnedChannelId !== undefined
	const retries = pinned ? 0 : dependencies.options.get('RetryTimes')
	let lastError: RelayError | undefined
	for (let attempts = 0; attempts <= retries;) {
		const target = relay.router.route(call, tried)
		if (!target) {
			if (pinned && tried.length === 0) throw relayErrors.channelDisabled()
			break
		}
		tried.push(target)
		const { channel } = target
		let opened: OpenedUpstream
		try {
			opened = await openUpstream(dependencies, relay, channel, call)
		} catch (error) {
			if (error instanceof ChannelUnfitError) {
				lastError ??= relayErrors.noChannel(call.group, call.model)
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
			if (call.signal.aborted) throw error
			dependencies.logger.warn('upstream request failed', { channelId: channel.id, reason: String((error as Error).name ?? error) })
			lastError = relayErrors.upstreamUnavailable()
			continue
		}
		attempts++
		const { response } = opened
		if (response.ok) {
			const answer = { target, opened, tried: tried.map((attempt) => attempt.channel.id) }
			call.scope.answered(channel, answer.tried)
			return answer
		}
		const status = mappedStatus(channel, response.status)
		relay.metrics.upstreamError(channel.id, status)
		const { error, upstreamMessage } = await upstreamError(channel, response, status)
		const reason = disableReason(dependencies.options, channel.autoBan, status, upstreamMessage)
		if (reason) await relay.disableChannel(channel.id, reason)
		lastError = error
		if (NEVER_RETRY.has(status)) break
	}
	throw lastError ?? relayErrors.noChannel(call.group, call.model)
}
