/**
 * How the channel tools reach an upstream: the channel as the relay sees it (whatever its status,
 * key decrypted) and the one outbound client under the `upstream` policy, with shorter waits than
 * real traffic since a tool answers an admin who is waiting.
 */
import { eq, inArray } from 'drizzle-orm'
import { CHANNEL_MESSAGES } from '@shared/channel'
import { type LocalizedMessage, nested, type ServerMessage, withValues } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import type { Dependencies } from '@/dependencies'
import { OutboundBlockedError, OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError, openerWith } from '@/lib/outbound'
import { WebSocketHandshakeError } from '@/lib/outbound/websocket'
import type { UpstreamFetch } from '@/relay/upstream/open'
import { scrubSecrets, upstreamMessageOf, type UpstreamIdentity } from '@/relay/upstream/messages'
import { adaptorFor } from '@/relay/providers/registry'
import { readableChannels, toRoutableChannel, type RoutableChannel } from '@/db/stores/channels'
import type { ChannelRecord } from '@/db/stores/channels'
import { refused } from '../../errors'

/** Milliseconds: tools give up sooner than relayed calls, whose first byte may take minutes. */
const TOOL_TIMEOUTS = { connect: 10_000, firstByte: 60_000, idle: 30_000 } as const

/**
 * The tools' waits, the connect limit (TCP and TLS handshake) no longer than the configured
 * `UPSTREAM_CONNECT_TIMEOUT_SECONDS`: an upstream the relay would give up on is given up on here too.
 */
const toolTimeouts = (dependencies: Dependencies) =>
	({ ...TOOL_TIMEOUTS, connect: Math.min(TOOL_TIMEOUTS.connect, dependencies.config.upstreamTimeouts.connectMs) })

export type ToolChannel = RoutableChannel & { status: number; otherInfo: string }

/** Throws when the key was written under another CRYPTO_SECRET: a tool cannot use it. */
const toToolChannel = (dependencies: Dependencies, row: ChannelRecord): ToolChannel =>
	({ ...toRoutableChannel(dependencies.secrets, row), status: row.status, otherInfo: row.otherInfo })

export async function loadToolChannel(dependencies: Dependencies, id: number): Promise<ToolChannel> {
	const { store } = dependencies
	const [row] = await store.db.select().from(store.tables.channels).where(eq(store.tables.channels.id, id))
	if (!row) throw refused(CHANNEL_MESSAGES.notFound)
	try {
		return toToolChannel(dependencies, row)
	} catch {
		throw refused(CHANNEL_TOOL_MESSAGES.keyUnreadable)
	}
}

/** Every channel whose key can be read, in id order, filtered by status. */
export async function loadToolChannels(dependencies: Dependencies, statuses: number[]): Promise<ToolChannel[]> {
	const { store, logger } = dependencies
	const { channels } = store.tables
	const found = await store.db.select().from(channels).where(inArray(channels.status, statuses)).orderBy(channels.id)
	return readableChannels(found, (row) => toToolChannel(dependencies, row),
		(channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId }))
}

/** The outbound opener `openUpstream` takes, as the relay builds it but with the tools' waits. */
export const toolOutbound = (dependencies: Dependencies): { outbound: UpstreamFetch } =>
	({ outbound: openerWith(dependencies.fetch, { policy: 'upstream', timeouts: toolTimeouts(dependencies) }) })

/** The channel's base URL, or its adaptor's default; empty when neither names one. */
export const baseUrlOf = (type: number, baseUrl: string) => baseUrl || adaptorFor(type)?.defaultBaseUrl || ''

/** A base URL without trailing slashes or `/v1`, which every tool path adds itself. */
export const withoutV1 = (base: string) => base.replace(/\/+$/, '').replace(/\/v1$/, '')

/** The first key of a multi-key channel (one key per line). */
export const firstKey = (key: string) => key.split('\n')[0]!.trim()

/** A request to an upstream through the outbound client; answers status, headers and body text. */
export async function upstreamSend(dependencies: Dependencies, url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }) {
	const response = await dependencies.fetch(url, { ...init, policy: 'upstream', timeouts: toolTimeouts(dependencies) })
	return { status: response.status, headers: response.headers, text: await response.text() }
}

export const upstreamGet = (dependencies: Dependencies, url: string, headers: Record<string, string>) =>
	upstreamSend(dependencies, url, { method: 'GET', headers })

/**
 * What an admin is told of an upstream's error answer: its status and own message (in the
 * upstream's words), the channel's keys and whereabouts scrubbed out.
 */
export function upstreamFailure(status: number, text: string, channel: UpstreamIdentity): LocalizedMessage {
	const found = upstreamMessageOf(text)
	return found
		? withValues(CHANNEL_TOOL_MESSAGES.upstreamAnswered, { status, message: scrubSecrets(found, channel) })
		: withValues(CHANNEL_TOOL_MESSAGES.upstreamAnsweredStatus, { status })
}

const BLOCK_REASONS = {
	invalid_url: CHANNEL_TOOL_MESSAGES.blockedInvalidUrl,
	scheme: CHANNEL_TOOL_MESSAGES.blockedScheme,
	credentials: CHANNEL_TOOL_MESSAGES.blockedCredentials,
	private_address: CHANNEL_TOOL_MESSAGES.blockedPrivateAddress,
	metadata_address: CHANNEL_TOOL_MESSAGES.blockedMetadataAddress,
	reserved_address: CHANNEL_TOOL_MESSAGES.blockedReservedAddress,
	redirect: CHANNEL_TOOL_MESSAGES.blockedRedirect,
	too_many_redirects: CHANNEL_TOOL_MESSAGES.blockedTooManyRedirects,
	redirect_body: CHANNEL_TOOL_MESSAGES.blockedRedirectBody,
} as const satisfies Record<OutboundBlockedError['reason'], ServerMessage>

const TIMEOUT_PHASES = {
	connect: CHANNEL_TOOL_MESSAGES.timeoutConnect,
	first_byte: CHANNEL_TOOL_MESSAGES.timeoutFirstByte,
	idle: CHANNEL_TOOL_MESSAGES.timeoutIdle,
} as const satisfies Record<OutboundTimeoutError['phase'], ServerMessage>

/**
 * What the outbound client's error says, for an admin: the same facts as its (English) message,
 * naming the target by scheme, host and port only. `fallback` for an error of no known kind.
 */
export function outboundFailure(error: OutboundError, fallback: ServerMessage): ServerMessage {
	const { target } = error
	if (error instanceof OutboundBlockedError) return withValues(CHANNEL_TOOL_MESSAGES.outboundBlocked, { target, reason: nested(BLOCK_REASONS[error.reason]) })
	if (error instanceof OutboundTimeoutError) {
		return withValues(CHANNEL_TOOL_MESSAGES.outboundTimedOut, { target, phase: nested(TIMEOUT_PHASES[error.phase]), milliseconds: error.milliseconds })
	}
	if (error instanceof OutboundTooLargeError) return withValues(CHANNEL_TOOL_MESSAGES.outboundTooLarge, { target, limit: error.limit })
	if (error instanceof OutboundNetworkError) return withValues(CHANNEL_TOOL_MESSAGES.outboundNetwork, { target, code: error.code })
	if (error instanceof WebSocketHandshakeError) return withValues(CHANNEL_TOOL_MESSAGES.outboundHandshake, { target, status: error.status })
	return fallback
}
