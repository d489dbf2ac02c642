/**
 * What the response cache keeps of an answer, and its key. The key is a SHA-256 of what makes two
 * calls the same: the user (never shared across users), the endpoint, the model, the group, whether
 * it streams, and the request as it would be sent — the client's own request when it may pass
 * through (its format, body, wire headers and query), else the canonical body and its extras. An
 * entry is the answer (a whole answer's text, or a stream's events in their batches) with its wire
 * format, the usage and charge of the call that made it, and who answered (the channel, its key,
 * the model the channel's mapping gave it and the fingerprint of the channel's settings: an entry
 * whose channel no longer serves the call, maps the model otherwise or has other settings is not used).
 */
import { createHash } from 'node:crypto'
import type { Usage } from '@/billing/price'
import type { KeyTarget } from '@/lib/session-affinity'
import { parseEventData, type AnswerEvent, type Json, type WireFormat } from '../formats/events'
import { dataOf } from '../formats/sse'
import type { HeldCall } from '../stages/call'

/** Raised whenever an entry's shape changes: entries of another version read as none. */
const ENTRY_VERSION = 2

/** A stream event as kept: its bytes when the upstream's were kept, else its data; `done` and bytes passed on unread. */
type KeptEvent = { d: string } | { j: Json } | { o: string } | { x: 1 }

export const CACHE_ENTRY_VERSION = ENTRY_VERSION

export interface CachedEntry {
	version: typeof ENTRY_VERSION
	wire: WireFormat
	/** A whole answer's text, or a stream's events by batch. */
	answer?: string
	batches?: KeptEvent[][]
	usage: Usage
	/** What the call that made the entry was charged. */
	charge: number
	answeredBy: KeyTarget
	/** The model name the channel's mapping gave the call. */
	upstreamModel: string
	/** The channel's `settingsFingerprint` when it answered (db/stores/channels.ts). */
	channelSettings: string
	/** Unix seconds. */
	createdAt: number
}

/** The cache key of a held call: a hash, so no request text is kept or shown. */
export function responseCacheKey(call: HeldCall): string {
	const { native, request } = call
	const material = JSON.stringify([
		call.caller.user.id, request.endpoint, call.model, call.group, call.stream,
		native ? [native.format, native.value, native.headers, native.search, native.path ?? ''] : [request.body, request.extras],
	])
	return createHash('sha256').update(material).digest('hex')
}

export function keepEvent(event: AnswerEvent): KeptEvent | undefined {
	switch (event.type) {
		case 'data': return event.raw !== undefined ? { d: event.raw } : { j: event.data }
		case 'other': return { o: event.raw }
		case 'done': return { x: 1 }
		case 'failed': return undefined
	}
}

export function replayedEvent(kept: KeptEvent): AnswerEvent {
	if ('d' in kept) return { type: 'data', data: parseEventData(dataOf(kept.d) || '{}'), raw: kept.d }
	if ('j' in kept) return { type: 'data', data: kept.j }
	if ('o' in kept) return { type: 'other', raw: kept.o }
	return { type: 'done' }
}

/** The data of a kept event, for reading it (undefined for one that has none, or none that parses). */
export function keptData(kept: KeptEvent): Json | undefined {
	if ('j' in kept) return kept.j
	const raw = 'd' in kept ? kept.d : 'o' in kept ? kept.o : undefined
	const data = raw === undefined ? undefined : dataOf(raw)
	if (!data || data === '[DONE]') return undefined
	try {
		return parseEventData(data)
	} catch {
		return undefined
	}
}

/** A kept event's size as counted against an entry's bound. */
export const keptSize = (kept: KeptEvent) => ('d' in kept ? kept.d.length : 'o' in kept ? kept.o.length : 'j' in kept ? JSON.stringify(kept.j).length : 1)

export const encodeEntry = (entry: CachedEntry) => JSON.stringify(entry)

export function decodeEntry(text: string): CachedEntry | undefined {
	try {
		const entry = JSON.parse(text) as CachedEntry
		return entry?.version === ENTRY_VERSION ? entry : undefined
	} catch {
		return undefined
	}
}
