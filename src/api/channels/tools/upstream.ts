/**
 * How the channel tools reach an upstream: the channel as the relay sees it (whatever its status,
 * key decrypted) and the one outbound client under the `upstream` policy, with shorter waits than
 * real traffic since a tool answers an admin who is waiting.
 */
import { asc, eq, inArray } from 'drizzle-orm'
import { CHANNEL_MESSAGES } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { type LocalizedMessage, nested, type ServerMessage, withValues } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import type { Dependencies } from '@/dependencies'
import { OutboundBlockedError, OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError, openerWith } from '@/lib/outbound'
import { WebSocketHandshakeError } from '@/lib/outbound/websocket'
import type { UpstreamFetch } from '@/relay/upstream/open'
import { scrubSecrets, upstreamMessageOf, type UpstreamIdentity } from '@/relay/upstream/messages'
import { defaultBaseUrlOf } from '@/relay/providers/registry'
import { isMultiKey, readableChannels, toRoutableChannel, type RoutableChannel } from '@/db/stores/channels'
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

/** A key of a tool channel with its status; a single-key channel's one key is index 0 with the channel's status. */
export interface ToolKey {
	index: number
	/** Decrypted. */
	key: string
	status: number
}

/**
 * A channel as the tools use it, whatever its status: every key it has (`toolKeys`), whatever theirs,
 * and whether the scheduled health check tests it (`scheduledTest`).
 */
export type ToolChannel = RoutableChannel & { status: number; otherInfo: string; scheduledTest: boolean; toolKeys: ToolKey[] }

type SealedToolKey = { channelId: number; index: number; key: string; status: number }

/** Throws when no key can be decrypted with this CRYPTO_SECRET: a tool cannot use the channel. */
function toToolChannel(dependencies: Dependencies, row: ChannelRecord, sealed: readonly SealedToolKey[]): ToolChannel {
	const { secrets } = dependencies
	const enabled = sealed.filter((key) => key.status === CHANNEL_STATUS.enabled)
	const routable = toRoutableChannel(secrets, row, enabled)
	const state = { status: row.status, otherInfo: row.otherInfo, scheduledTest: Boolean(row.scheduledTestEnabled) }
	if (!isMultiKey(row)) return { ...routable, ...state, toolKeys: [{ index: 0, key: routable.key, status: row.status }] }
	const toolKeys: ToolKey[] = []
	for (const { index, key, status } of sealed) {
		try {
			toolKeys.push({ index, key: secrets.decrypt(key), status })
		} catch {
			// A key written under another CRYPTO_SECRET is no use to a tool.
		}
	}
	if (toolKeys.length === 0) throw new Error('no key of the channel can be decrypted')
	return { ...routable, ...state, toolKeys }
}

/** The keys of these multi-key channels, sealed, in index order, in one query (per 500 channels). */
async function sealedKeysOf({ store }: Dependencies, rows: readonly ChannelRecord[]): Promise<Map<number, SealedToolKey[]>> {
	const { channelKeys } = store.tables
	const ids = rows.filter(isMultiKey).map((row) => row.id)
	const byChannel = new Map<number, SealedToolKey[]>()
	for (let start = 0; start < ids.length; start += ID_CHUNK) {
		const found = await store.db.select({ channelId: channelKeys.channelId, index: channelKeys.position, key: channelKeys.key, status: channelKeys.status })
			.from(channelKeys).where(inArray(channelKeys.channelId, ids.slice(start, start + ID_CHUNK))).orderBy(asc(channelKeys.channelId), asc(channelKeys.position))
		for (const key of found) {
			const list = byChannel.get(key.channelId)
			if (list) list.push(key)
			else byChannel.set(key.channelId, [key])
		}
	}
	return byChannel
}

const ID_CHUNK = 500

export async function loadToolChannel(dependencies: Dependencies, id: number): Promise<ToolChannel> {
	const { store } = dependencies
	const [row] = await store.db.select().from(store.tables.channels).where(eq(store.tables.channels.id, id))
	if (!row) throw refused(CHANNEL_MESSAGES.notFound)
	const keys = await sealedKeysOf(dependencies, [row])
	try {
		return toToolChannel(dependencies, row, keys.get(row.id) ?? [])
	} catch {
		throw refused(CHANNEL_TOOL_MESSAGES.keyUnreadable)
	}
}

/** Every channel whose key can be read, in id order, filtered by status. */
export async function loadToolChannels(dependencies: Dependencies, statuses: number[]): Promise<ToolChannel[]> {
	const { store, logger } = dependencies
	const { channels } = store.tables
	const found = await store.db.select().from(channels).where(inArray(channels.status, statuses)).orderBy(channels.id)
	const keys = await sealedKeysOf(dependencies, found)
	return readableChannels(found, (row) => toToolChannel(dependencies, row, keys.get(row.id) ?? []),
		(channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId }))
}

/** The key a tool uses when none is named: the first enabled one, else the first auto-disabled one (never one disabled by hand). */
export const usableKey = (channel: ToolChannel): ToolKey | undefined =>
	channel.toolKeys.find((key) => key.status === CHANNEL_STATUS.enabled) ?? channel.toolKeys.find((key) => key.status === CHANNEL_STATUS.autoDisabled)

/** The channel calling with this one key. */
export const withKey = (channel: ToolChannel, key: ToolKey): ToolChannel => ({ ...channel, key: key.key, keys: [{ index: key.index, key: key.key }] })

/** The channel calling with its usable key; refused when every key is disabled by hand. A single-key channel is itself. */
export function withUsableKey(channel: ToolChannel): ToolChannel {
	if (!isMultiKey(channel)) return channel
	const key = usableKey(channel)
	if (!key) throw refused(CHANNEL_TOOL_MESSAGES.noUsableKey)
	return withKey(channel, key)
}

/** The outbound opener `openUpstream` takes, as the relay builds it but with the tools' waits. */
export const toolOutbound = (dependencies: Dependencies): { outbound: UpstreamFetch } =>
	({ outbound: openerWith(dependencies.fetch, { policy: 'upstream', timeouts: toolTimeouts(dependencies) }) })

/** The channel's base URL, or its adaptor's default; empty when neither names one. */
export const baseUrlOf = (type: number, baseUrl: string) => baseUrl || defaultBaseUrlOf(type)

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
	// The client's target for a URL it could not parse is English words, not a name to show.
	if (error instanceof OutboundBlockedError && error.reason === 'invalid_url') return withValues(CHANNEL_TOOL_MESSAGES.outboundBlockedUnnamed, { reason: nested(BLOCK_REASONS.invalid_url) })
	if (error instanceof OutboundBlockedError) return withValues(CHANNEL_TOOL_MESSAGES.outboundBlocked, { target, reason: nested(BLOCK_REASONS[error.reason]) })
	if (error instanceof OutboundTimeoutError) {
		return withValues(CHANNEL_TOOL_MESSAGES.outboundTimedOut, { target, phase: nested(TIMEOUT_PHASES[error.phase]), milliseconds: error.milliseconds })
	}
	if (error instanceof OutboundTooLargeError) return withValues(CHANNEL_TOOL_MESSAGES.outboundTooLarge, { target, limit: error.limit })
	if (error instanceof OutboundNetworkError) return withValues(CHANNEL_TOOL_MESSAGES.outboundNetwork, { target, code: error.code })
	if (error instanceof WebSocketHandshakeError) return withValues(CHANNEL_TOOL_MESSAGES.outboundHandshake, { target, status: error.status })
	return fallback
}
