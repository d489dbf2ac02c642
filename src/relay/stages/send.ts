/**
 * The send stage: sends a held call upstream, attempt after attempt, until an upstream answers
 * with a 2xx status. Before each attempt it asks the route stage (route.ts) where to go — a channel
 * and one of its keys, never twice the same — opens the upstream (upstream/open.ts) with that key,
 * and classifies what went wrong:
 *
 * - a target that cannot take the call (its type or its model mapping) is skipped, not counted;
 * - a failure that says nothing of the request (429, 5xx but 504/524, a timeout, a refused
 *   connection, a streamed answer with no content within its first-content limit: first-content.ts)
 *   moves to another key of the same channel first, which is not counted against
 *   `RetryTimes` (at most `KEY_SWITCHES` such moves a call), then to another channel, which is;
 * - statuses that are the request's fault (400, 408, 413, 415, 422 — and 504/524: the upstream
 *   already spent the time) end the call at once;
 * - each key's health learns what it did (router/key-health.ts): 429, or 503 with `Retry-After`
 *   (or a Google upstream's `RetryInfo`), cools the key; other such failures count toward a
 *   backoff; an answer clears them;
 * - a key the upstream calls invalid or out of credit (401/403, a token service refusing it, an
 *   error matching `AutomaticDisableKeywords`) is auto-disabled when the channel's auto-ban is on
 *   (routing/channel-health.ts); a single-key channel with it.
 *
 * The call's session (affinity) is looked up before the first attempt and pinned to the key that
 * answered; every attempt is recorded for the log. Answers the upstream that answered; throws the
 * last failure as a RelayError.
 */
import type { Dependencies } from '@/dependencies'
import type { OpenedResponse } from '@/lib/outbound'
import type { KeyTarget } from '@/lib/session-affinity'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { UNREACHABLE } from '../call-metrics'
import { RelayError, relayErrors, wordedRelayError } from '../errors'
import { wireReader } from '../formats/wire'
import { AdaptorFetchError } from '../providers/types'
import { retryAfterMs } from '../router/key-health'
import { disableReason } from '../routing/channel-health'
import type { RoutableChannel } from '../routing/routing-table'
import type { RelayServices } from '../services'
import { googleErrorOf, retryAfterOf } from '../upstream/google-error'
import { scrubSecrets, upstreamMessageOf } from '../upstream/messages'
import { ChannelUnfitError, openUpstream, type OpenedUpstream } from '../upstream/open'
import type { AffinityOutcome, CallAttempt, HeldCall } from './call'
import { awaitFirstContent, firstContentLimitMs } from './first-content'
import { keyedChannel, keyTargetOf, type RouteTarget } from './route'
import { answersAsEventStream, streamSource, type StreamSource } from './stream-source'

/** 504/524 mean the upstream already spent the time; the rest are the request's own fault. */
const NEVER_RETRY = new Set([400, 408, 413, 415, 422, 504, 524])
const ERROR_BODY_LIMIT = 64 * 1024
/** The most moves to another key of the same channel one call makes (they do not count as retries). */
export const KEY_SWITCHES = 4
const TOO_MANY_REQUESTS = 429
const SERVICE_UNAVAILABLE = 503

/** The upstream that answered (with a 2xx status), how to read its answer, and every attempt. */
export interface UpstreamAnswer {
	target: RouteTarget
	opened: OpenedUpstream
	/** Every attempt, the one that answered last. */
	attempts: CallAttempt[]
	/** A stream read up to its first content (first-content.ts): the meter reads its events from here. */
	stream?: StreamSource
}

/**
 * Endpoints whose call makes the upstream start a task (a video). Such a submit is sent again only
 * after an answer saying the upstream did not take it (its key refused, 429): after a timeout, a
 * broken connection or a 5xx the upstream may have started the task, and a second submit would make
 * (and cost the operator) a second one.
 */
const TASK_SUBMIT_ENDPOINTS: ReadonlySet<string> = new Set(['videos'])
const NOT_TAKEN_STATUSES = new Set([401, 403, 429])

/** A token or signing service refusing the channel's key with one of these means the key is wrong. */
const CREDENTIAL_STATUSES = new Set([400, 401, 403])
const UNAUTHORIZED = 401

const credentialsRejected = () => wordedRelayError(502, RELAY_MESSAGES.credentialsRejected, 'upstream_error', 'upstream_auth_failed')

/**
 * A channel's `status_code_mapping` rewrites an upstream's error status before anything else sees
 * it: the attempt's record, the key's health and auto-disable, the retry, the client. A task's
 * submit (relay/tasks/submission.ts) maps its refusals with it too.
 */
export function mappedStatus(channel: RoutableChannel, status: number) {
	const mapped = Number(channel.statusCodeMapping[String(status)])
	return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status
}

/**
 * The error the client sees, the upstream's own (scrubbed) message for the key's record, and how
 * long the upstream asks to wait (its `Retry-After`, or a Google upstream's `RetryInfo`), for the
 * key's cooldown. A 429 or 503 tells the client that wait as its `Retry-After` too, and a Google
 * upstream's error details (made safe to show) reach a Gemini client.
 */
async function upstreamError(channel: RoutableChannel, key: string, response: OpenedResponse, status: number) {
	const text = await response.text().then((body) => body.slice(0, ERROR_BODY_LIMIT), () => '')
	const identity = { ...channel, key }
	const upstreamMessage = scrubSecrets(upstreamMessageOf(text) ?? `upstream error ${response.status}`, identity)
	const google = googleErrorOf(text, identity)
	const retryAfter = response.headers.get('retry-after') ?? retryAfterOf(google) ?? null
	// The upstream refusing the gateway's own credentials is not the client's key being wrong.
	if (status === 401 || status === 403) return { error: credentialsRejected(), upstreamMessage, retryAfter }
	const error = new RelayError(status, upstreamMessage, status === TOO_MANY_REQUESTS ? 'rate_limit_error' : 'upstream_error', `upstream_${status}`)
	// A status the channel's mapping changed keeps Ferry's name for it; the details still say why.
	if (google) error.google = status === response.status ? google : { details: google.details }
	const wait = status === TOO_MANY_REQUESTS || status === SERVICE_UNAVAILABLE ? retryAfterMs(retryAfter, Date.now()) : undefined
	if (wait !== undefined) error.retryAfterSeconds = wait / 1000
	return { error, upstreamMessage, retryAfter }
}

/*
 * What one attempt teaches its key (key-health.ts, the key's record, auto-disable). The send loop
 * and a task's submit (relay/tasks/submission.ts), sent once to the key the router chose, share them.
 */

/** A 2xx answer: the key is healthy, and its first byte came at `answeredAt`, `started` after the request (performance.now()). */
export function keyAnswered(relay: RelayServices, target: RouteTarget, started: number, answeredAt = performance.now()) {
	const keyTarget = keyTargetOf(target)
	relay.keyHealth.succeeded(keyTarget)
	relay.keyHealth.recordFirstByte(keyTarget, answeredAt - started)
}

/** The upstream could not be reached (a timeout, a refused connection): the key counts a failure. */
export function keyUnreachable(relay: RelayServices, target: RouteTarget) {
	relay.keyHealth.failed(keyTargetOf(target))
}

/**
 * An error status (`upstreamMessage` already scrubbed): kept as the key's last error; the key is
 * auto-disabled when the channel's auto-ban says so (401/403, a configured keyword) — a single-key
 * channel with it; a 429, or a 503 with `Retry-After`, cools it; another 5xx counts a failure. A
 * status that is the request's fault leaves its health alone.
 */
export async function keyRefused(dependencies: Dependencies, relay: RelayServices, target: RouteTarget, status: number, upstreamMessage: string, retryAfter: string | null) {
	const { channel } = target
	const keyTarget = keyTargetOf(target)
	relay.metrics.upstreamError(channel.id, status)
	relay.keyOutcomes.record({ channelId: channel.id, index: target.keyIndex }, { error: upstreamMessage, secret: target.key })
	const reason = disableReason(dependencies.options, channel.autoBan, status, upstreamMessage)
	if (reason) await relay.disableKey(keyTarget, reason)
	if (NEVER_RETRY.has(status)) return
	if (status === TOO_MANY_REQUESTS || (status === SERVICE_UNAVAILABLE && retryAfter)) relay.keyHealth.rateLimited(keyTarget, retryAfter)
	else if (status >= 500) relay.keyHealth.failed(keyTarget)
}

/** The session's pinned key, when the call names a session and affinity is on. */
async function sessionTarget(dependencies: Dependencies, call: HeldCall): Promise<KeyTarget | undefined> {
	if (!call.session || !dependencies.options.get('AffinityEnabled')) return undefined
	return dependencies.affinity.get(call.session.id).catch(() => undefined)
}

/** Pins the session to the key that answered, and says how that went for the log. */
function pinSession(dependencies: Dependencies, call: HeldCall, pinned: KeyTarget | undefined, answered: RouteTarget, relay: RelayServices): AffinityOutcome | undefined {
	if (!call.session || !dependencies.options.get('AffinityEnabled')) return undefined
	const source = call.session.source
	const target = keyTargetOf(answered)
	if (pinned && pinned.channelId === target.channelId && pinned.keyIndex === target.keyIndex) return { state: 'hit', source }
	dependencies.affinity.set(call.session.id, target)
	if (!pinned) return { state: 'new', source }
	const pinnedChannel = relay.routing.channel(pinned.channelId)
	const usable = pinnedChannel?.keys.some((key) => key.index === pinned.keyIndex)
	const reason = !usable ? 'unusable' : relay.keyHealth.coolingUntil(pinned) > 0 ? 'cooling' : 'failed'
	return { state: 'moved', reason, source }
}

/**
 * Every pass adds a target to `tried`, and the router never answers a tried one, so the loop ends.
 * Records who answered, and how, on the call's scope, for the log.
 */
export async function send(dependencies: Dependencies, relay: RelayServices, call: HeldCall): Promise<UpstreamAnswer> {
	const tried: RouteTarget[] = []
	const attempts: CallAttempt[] = []
	const pinned = call.caller.pinnedChannelId !== undefined
	const retries = pinned ? 0 : dependencies.options.get('RetryTimes')
	const submitsTask = TASK_SUBMIT_ENDPOINTS.has(call.request.endpoint)
	const session = await sessionTarget(dependencies, call)
	const { keyHealth } = relay
	let lastError: RelayError | undefined
	let retried = 0
	let keySwitches = 0
	/** The channel of the last attempt that failed: its other keys go next, free of the retry count. */
	let stayOn: number | undefined
	for (;;) {
		const target = relay.router.route(call, tried, { stayOn, session })
		if (!target) {
			if (pinned && tried.length === 0) throw relayErrors.channelDisabled()
			break
		}
		let counted: 'switch' | 'retry' | undefined
		if (attempts.length > 0) {
			if (target.channel.id === stayOn && keySwitches < KEY_SWITCHES) counted = 'switch'
			else if (retried < retries) counted = 'retry'
			else break
			if (counted === 'switch') keySwitches++
			else retried++
		}
		tried.push(target)
		stayOn = undefined
		const { channel } = target
		const keyTarget = keyTargetOf(target)
		const keyed = keyedChannel(target)
		const started = performance.now()
		let opened: OpenedUpstream
		try {
			opened = await openUpstream(dependencies, relay, keyed, call)
		} catch (error) {
			if (error instanceof ChannelUnfitError) {
				// Not an attempt (it costs no retry), and no key of the channel could do better: none is offered again.
				if (counted === 'switch') keySwitches--
				else if (counted === 'retry') retried--
				lastError ??= relayErrors.noChannel(call.group, call.model)
				for (const key of channel.keys) if (key.index !== target.keyIndex) tried.push({ channel, keyIndex: key.index, key: key.key })
				continue
			}
			const timedOut = error instanceof Error && error.name === 'TimeoutError'
			relay.metrics.upstreamError(channel.id, error instanceof AdaptorFetchError ? error.status : UNREACHABLE)
			if (error instanceof AdaptorFetchError && CREDENTIAL_STATUSES.has(error.status)) {
				attempts.push({ channel: channel.id, key: target.keyIndex, outcome: error.status })
				const reason = disableReason(dependencies.options, channel.autoBan, UNAUTHORIZED, error.message)
				if (reason) await relay.disableKey(keyTarget, reason)
				relay.keyOutcomes.record({ channelId: channel.id, index: target.keyIndex }, { error: scrubSecrets(error.message, keyed), secret: target.key })
				lastError = credentialsRejected()
				stayOn = channel.id
				continue
			}
			// A request the channel's wire format cannot express (token arrays to a text-only API) is the client's to change.
			if (error instanceof RelayError && error.status < 500) throw error
			if (call.signal.aborted) throw error
			attempts.push({ channel: channel.id, key: target.keyIndex, outcome: timedOut ? 'timeout' : 'connection' })
			keyUnreachable(relay, target)
			dependencies.logger.warn('upstream request failed', { channelId: channel.id, key: target.keyIndex, reason: String((error as Error).name ?? error) })
			lastError = relayErrors.upstreamUnavailable()
			if (submitsTask) break
			stayOn = channel.id
			continue
		}
		const { response } = opened
		if (response.ok) {
			const answeredAt = performance.now()
			const inFlight = keyHealth.started(keyTarget)
			const limitMs = answersAsEventStream(call) ? firstContentLimitMs(channel.setting, dependencies.config.upstreamTimeouts.firstTokenMs) : 0
			let stream: StreamSource | undefined
			if (limitMs > 0) {
				const source = streamSource(dependencies, relay, call, opened)
				const events = await awaitFirstContent(source.events, wireReader(opened.wire).stream(), limitMs)
				if (!events) {
					// Nothing reached the client yet: the attempt failed like one whose first byte never came.
					inFlight()
					attempts.push({ channel: channel.id, key: target.keyIndex, outcome: 'timeout' })
					relay.metrics.upstreamError(channel.id, UNREACHABLE)
					keyUnreachable(relay, target)
					dependencies.logger.warn('upstream stream brought no content in time', { channelId: channel.id, key: target.keyIndex, limitMs })
					lastError = relayErrors.upstreamUnavailable()
					if (call.signal.aborted) break
					stayOn = channel.id
					continue
				}
				stream = { events, policy: source.policy }
			}
			keyAnswered(relay, target, started, answeredAt)
			attempts.push({ channel: channel.id, key: target.keyIndex, outcome: 'ok' })
			const affinity = pinSession(dependencies, call, session, target, relay)
			call.scope.answered(target, attempts, affinity)
			call.scope.onClose(inFlight)
			return { target, opened, attempts, stream }
		}
		const status = mappedStatus(channel, response.status)
		attempts.push({ channel: channel.id, key: target.keyIndex, outcome: status })
		const { error, upstreamMessage, retryAfter } = await upstreamError(channel, target.key, response, status)
		await keyRefused(dependencies, relay, target, status, upstreamMessage, retryAfter)
		lastError = error
		if (NEVER_RETRY.has(status) || (submitsTask && !NOT_TAKEN_STATUSES.has(status))) break
		stayOn = channel.id
	}
	throw lastError ?? relayErrors.noChannel(call.group, call.model)
}
