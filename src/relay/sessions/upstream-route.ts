/**
 * Opening a long session's upstream socket on a key the router picks (stages/route.ts): the same
 * choice as any call's — the group's policy, per-key health, and the session's affinity (its key,
 * pinned once connected) — attempt after attempt. A key whose handshake is refused for its
 * credentials (401/403) is auto-disabled as a call's would be; a 429 (or a 503 with Retry-After) cools
 * it; another failure counts toward its backoff; the next attempt stays on the channel's other keys
 * first. Nothing is billed here: a session's responses are (response-calls.ts).
 */
import type { Dependencies } from '@/dependencies'
import type { KeyTarget } from '@/lib/session-affinity'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { RelayError, relayErrors, wordedRelayError } from '../errors'
import { loadAdaptor } from '../providers/registry'
import type { SocketKind, SocketRoute } from '../providers/types'
import { disableReason } from '../routing/channel-health'
import type { SessionKey } from '../router/session-key'
import type { RelayServices } from '../services'
import type { AffinityOutcome, CallAttempt } from '../stages/call'
import { keyTargetOf, type RoutedCall, type RouteTarget } from '../stages/route'
import { KEY_SWITCHES } from '../stages/send'
import { ModelMappingCycleError, upstreamModel } from '../upstream/model-mapping'
import { openUpstreamSocket, UpstreamSocketError, type UpstreamSocket, type UpstreamSocketHandlers } from './upstream-socket'
import type { AnsweringKey } from './response-calls'

export interface SocketConnection {
	socket: UpstreamSocket
	key: AnsweringKey
	route: SocketRoute
	/** The model's name upstream (the channel's mapping). */
	upstreamModel: string
}

const UNAUTHORIZED = 401
const TOO_MANY_REQUESTS = 429

/** How the session's affinity went, as the log tells it. */
function affinityOf(dependencies: Dependencies, session: SessionKey | undefined, pinned: KeyTarget | undefined, target: RouteTarget): AffinityOutcome | undefined {
	if (!session || !dependencies.options.get('AffinityEnabled')) return undefined
	const answered = keyTargetOf(target)
	if (pinned && pinned.channelId === answered.channelId && pinned.keyIndex === answered.keyIndex) return { state: 'hit', source: session.source }
	dependencies.affinity.set(session.id, answered)
	return pinned ? { state: 'moved', reason: 'failed', source: session.source } : { state: 'new', source: session.source }
}

/**
 * Opens a socket of `kind` for the call on the first key that takes it. `prefer` is a key to try
 * first (the one already serving the session, or keeping a response it continues); `headers` are the
 * client's that belong to the wire (OpenAI-Beta). Throws the last failure as a RelayError.
 */
export async function connectSocket(
	dependencies: Dependencies, relay: RelayServices, call: RoutedCall, kind: SocketKind, options: {
		session?: SessionKey
		prefer?: KeyTarget
		headers?: Record<string, string>
		handlers: UpstreamSocketHandlers
	},
): Promise<SocketConnection> {
	const tried: RouteTarget[] = []
	const attempts: CallAttempt[] = []
	const pinned = options.session && dependencies.options.get('AffinityEnabled') ? await dependencies.affinity.get(options.session.id).catch(() => undefined) : undefined
	const retries = call.caller.pinnedChannelId !== undefined ? 0 : dependencies.options.get('RetryTimes')
	let lastError: RelayError | undefined
	let stayOn: number | undefined
	for (let attempt = 0; attempt <= retries + KEY_SWITCHES; attempt++) {
		const target = relay.router.route(call, tried, { stayOn, session: options.prefer ?? pinned })
		if (!target) break
		tried.push(target)
		stayOn = undefined
		const { channel } = target
		const adaptor = await loadAdaptor(channel.type)
		const route = adaptor?.sockets?.[kind]
		if (!adaptor || !route) continue
		let model: string
		try {
			model = upstreamModel(channel.modelMapping, call.model)
		} catch (error) {
			if (error instanceof ModelMappingCycleError) continue
			throw error
		}
		const upstreamChannel = { ...channel, key: target.key, baseUrl: channel.baseUrl || adaptor.defaultBaseUrl }
		const keyTarget = keyTargetOf(target)
		try {
			const socket = await openUpstreamSocket(dependencies, route.url(upstreamChannel, model), { ...route.headers(upstreamChannel), ...options.headers }, options.handlers)
			relay.keyHealth.succeeded(keyTarget)
			attempts.push({ channel: channel.id, key: target.keyIndex, outcome: 'ok' })
			return { socket, route, upstreamModel: model, key: { target, attempts, affinity: affinityOf(dependencies, options.session, pinned, target) } }
		} catch (error) {
			if (!(error instanceof UpstreamSocketError)) throw error
			const status = error.status
			attempts.push({ channel: channel.id, key: target.keyIndex, outcome: status ?? 'connection' })
			relay.metrics.upstreamError(channel.id, status ?? 'unreachable')
			stayOn = channel.id
			if (status === UNAUTHORIZED || status === 403) {
				const reason = disableReason(dependencies.options, channel.autoBan, UNAUTHORIZED, error.message)
				if (reason) await relay.disableKey(keyTarget, reason)
				lastError = wordedRelayError(502, RELAY_MESSAGES.credentialsRejected, 'upstream_error', 'upstream_auth_failed')
				continue
			}
			if (status === TOO_MANY_REQUESTS) relay.keyHealth.rateLimited(keyTarget, null)
			else relay.keyHealth.failed(keyTarget)
			lastError = status && status < 500 && status !== TOO_MANY_REQUESTS
				? new RelayError(status, `the upstream refused the session: status ${status}`, 'invalid_request_error', `upstream_${status}`)
				: relayErrors.upstreamUnavailable()
			if (status && status < 500 && status !== TOO_MANY_REQUESTS) break
		}
	}
	throw lastError ?? relayErrors.noChannel(call.group, call.model)
}
