/**
 * How the channel tools reach an upstream: the channel as the relay sees it (whatever its status,
 * key decrypted) and the one outbound client under the `upstream` policy, with shorter waits than
 * real traffic since a tool answers an admin who is waiting.
 */
import { eq } from 'drizzle-orm'
import { CHANNEL_MESSAGES, splitList } from '@shared/channel'
import type { Dependencies } from '@/dependencies'
import { openedFromResponse, type OutboundClient } from '@/lib/outbound'
import type { RelayServices } from '@/relay/pipeline/services'
import type { RoutableChannel } from '../repository'
import { refused } from '../../errors'
import { parseJsonObject } from '../fields'

/** Milliseconds: tools give up sooner than relayed calls, whose first byte may take minutes. */
export const TOOL_TIMEOUTS = { connect: 10_000, firstByte: 60_000, idle: 30_000 } as const

export type ToolChannel = RoutableChannel & { status: number; otherInfo: string }

/** Values as text: status code mappings may hold numbers (`{"429": 503}`). */
function textMap(text: string): Record<string, string> {
	return Object.fromEntries(Object.entries(parseJsonObject(text))
		.filter(([, value]) => typeof value === 'string' || typeof value === 'number')
		.map(([key, value]) => [key, String(value)]))
}

type ChannelRow = Awaited<ReturnType<typeof selectChannels>>[number]

function selectChannels(dependencies: Dependencies, id?: number) {
	const { store } = dependencies
	const { channels } = store.tables
	const all = store.db.select().from(channels)
	return id === undefined ? all.orderBy(channels.id) : all.where(eq(channels.id, id))
}

/** Throws when the key was written under another CRYPTO_SECRET: a tool cannot use it. */
export function toToolChannel(dependencies: Dependencies, row: ChannelRow): ToolChannel {
	return {
		id: row.id,
		type: row.type,
		name: row.name,
		key: dependencies.secrets.decrypt(row.key),
		baseUrl: row.baseUrl,
		other: row.other,
		organization: row.openaiOrganization,
		models: splitList(row.models),
		groups: splitList(row.group),
		priority: row.priority,
		weight: row.weight,
		modelMapping: textMap(row.modelMapping),
		statusCodeMapping: textMap(row.statusCodeMapping),
		autoBan: row.autoBan === 1,
		setting: parseJsonObject(row.setting),
		testModel: row.testModel,
		status: row.status,
		otherInfo: row.otherInfo,
	}
}

export const KEY_UNREADABLE = 'the channel key cannot be decrypted with this CRYPTO_SECRET; enter the key again'

export async function loadToolChannel(dependencies: Dependencies, id: number): Promise<ToolChannel> {
	const [row] = await selectChannels(dependencies, id)
	if (!row) throw refused(CHANNEL_MESSAGES.notFound)
	try {
		return toToolChannel(dependencies, row)
	} catch {
		throw refused(KEY_UNREADABLE)
	}
}

/** Every channel whose key can be read, in id order, filtered by status. */
export async function loadToolChannels(dependencies: Dependencies, statuses: readonly number[]): Promise<ToolChannel[]> {
	const found: ToolChannel[] = []
	for (const row of await selectChannels(dependencies)) {
		if (!statuses.includes(row.status)) continue
		try {
			found.push(toToolChannel(dependencies, row))
		} catch {
			dependencies.logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId: row.id })
		}
	}
	return found
}

/** The outbound opener `openUpstream` takes, as the relay builds it but with the tools' waits. */
export function toolOutbound(dependencies: Dependencies): Pick<RelayServices, 'outbound'> {
	const init = { policy: 'upstream' as const, timeouts: TOOL_TIMEOUTS }
	const { open } = dependencies.fetch as Partial<OutboundClient>
	return {
		outbound: open
			? (url, requestInit) => open(url, { ...requestInit, ...init })
			: async (url, requestInit) => openedFromResponse(await dependencies.fetch(url, { ...requestInit, ...init })),
	}
}

/** A request to an upstream through the outbound client; answers status, headers and body text. */
export async function upstreamSend(dependencies: Dependencies, url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }) {
	const response = await dependencies.fetch(url, { ...init, policy: 'upstream', timeouts: TOOL_TIMEOUTS })
	return { status: response.status, headers: response.headers, text: await response.text() }
}

export const upstreamGet = (dependencies: Dependencies, url: string, headers: Record<string, string>) =>
	upstreamSend(dependencies, url, { method: 'GET', headers })

/** Keys and key-like strings never reach an answer, even when an upstream echoes them. */
export function scrubSecrets(message: string, key: string): string {
	let text = message.slice(0, 500)
	for (const part of key.split(/[|\n]/).filter((piece) => piece.length >= 4)) text = text.replaceAll(part, '***')
	return text.replace(/\b(sk|key|AIza)[-_A-Za-z0-9]{8,}/g, '***')
}
