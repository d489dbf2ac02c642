/**
 * The response cache stage, between hold and send: an identical call (same user, endpoint, model,
 * group, and request as it would be sent: response-cache/entry.ts) made within `ResponseCacheSeconds`
 * is answered from the cache — a whole answer as it was, a stream as a replay of its events in their
 * batches — without an upstream. It is off while `ResponseCacheSeconds` is 0, and a call skips it
 * when its token opted out, when the client asked `Cache-Control: no-cache` (or `no-store`), and for
 * endpoints whose answers are not text (media, uploads).
 *
 * A hit is billed through the call's hold at `ResponseCacheRatio` × what the recorded call was
 * charged (0 by default), with a log line of its own type (`cacheHit`), no channel counted. A miss
 * goes upstream as any call; its answer is kept once it completed — never an error (those throw
 * before here), a stream that failed or was cut, an answer that calls a tool, an empty answer that
 * was not charged (empty-output.ts), or one larger than the store may hold
 * (`ResponseCacheMaxBytes`, store.ts). An entry is used only while the channel
 * that made it still serves the call, maps the model to the same upstream model, and has the same
 * settings that shape what its upstream is asked and answers (type, base URL, `other`, organization,
 * extra setting: `settingsFingerprint`, db/stores/channels.ts) as when it answered.
 */
import type { Dependencies } from '@/dependencies'
import { settle } from '@/billing/holds'
import { quotaForUsage, roundQuota, type Usage } from '@/billing/price'
import { nowSeconds } from '@/lib/clock'
import { LOG_TYPE } from '@shared/log-constants'
import type { EventReader, WireFormat } from '../formats/events'
import { callsTool } from '../formats/tool-calls'
import type { RelayEndpoint } from '../providers/types'
import { decodeEntry, encodeEntry, CACHE_ENTRY_VERSION, type CachedEntry, keepEvent, keptData, keptSize, replayedEvent, responseCacheKey } from '../response-cache/entry'
import type { RelayServices } from '../services'
import { upstreamModel } from '../upstream/model-mapping'
import type { HeldCall } from './call'
import type { CallResult } from './meter'

/** Whether the answer came from the cache (`hit`) or the cache was asked and had none (`miss`). */
export type CacheOutcome = 'hit' | 'miss'

/** A call's result, and how the response cache took part (absent while the cache is off or skipped). */
export type RelayResult = CallResult & { cache?: CacheOutcome }

/** Endpoints whose answers are JSON text worth replaying. */
const CACHED_ENDPOINTS: ReadonlySet<RelayEndpoint> = new Set(['chat', 'completions', 'embeddings', 'rerank'])
/** The largest single entry, whatever the store's bound (an entry is read whole into memory on a hit). */
const ENTRY_LIMIT_CHARACTERS = 8 * 1024 * 1024

/** The cache's part in one call: where its answer is kept, for how long. */
export interface CacheTicket {
	key: string
	seconds: number
}

/** The call's cache ticket, or undefined when the cache is off or the call skips it. */
export function cacheTicket(dependencies: Dependencies, call: HeldCall): CacheTicket | undefined {
	const seconds = dependencies.options.get('ResponseCacheSeconds')
	if (seconds <= 0 || !CACHED_ENDPOINTS.has(call.request.endpoint) || call.request.upload) return undefined
	if (!call.caller.token.responseCache || call.bypassResponseCache) return undefined
	return { key: responseCacheKey(call), seconds }
}

/** Whether the entry's channel still serves this call, with the settings it answered under, mapping the model to the model that answered. */
function stillServed(relay: RelayServices, call: HeldCall, entry: CachedEntry): boolean {
	const { channelId } = entry.answeredBy
	if (call.caller.pinnedChannelId !== undefined && call.caller.pinnedChannelId !== channelId) return false
	const channel = relay.routing.offered(call.group, call.model, channelId, { accepts: call.acceptance.accepts, cacheKey: call.acceptance.cacheKey })
	if (!channel || channel.settingsFingerprint !== entry.channelSettings) return false
	try {
		return upstreamModel(channel.modelMapping, call.model) === entry.upstreamModel
	} catch {
		return false
	}
}

/** The answer from the cache, settled, or undefined on a miss (the call then goes upstream). */
export async function answerFromCache(dependencies: Dependencies, relay: RelayServices, call: HeldCall, ticket: CacheTicket): Promise<RelayResult | undefined> {
	const text = await relay.responseCache.get(ticket.key)
	const entry = text === undefined ? undefined : decodeEntry(text)
	if (!entry || !stillServed(relay, call, entry)) {
		relay.metrics.cacheLookup('miss')
		return undefined
	}
	relay.metrics.cacheLookup('hit')
	await call.scope.settleWith(() => settleHit(dependencies, relay, call, entry))
	const { wire, answeredBy, usage } = entry
	if (entry.answer !== undefined) return { kind: 'answer', wire, answer: JSON.parse(entry.answer), text: entry.answer, usage, answeredBy, cache: 'hit' }
	return { kind: 'stream', wire, events: replay(entry), answeredBy, prompt: call.prompt, billed: Promise.resolve(usage), cache: 'hit' }
}

/** A hit's charge and its log line (type `cacheHit`), through the ledger; no channel served it. */
async function settleHit(dependencies: Dependencies, relay: RelayServices, call: HeldCall, entry: CachedEntry) {
	const { options } = dependencies
	const ratio = options.get('ResponseCacheRatio')
	const actual = roundQuota(entry.charge * ratio)
	const userId = call.caller.user.id
	const outcome = await settle(relay.ledger, {
		requestId: call.requestId,
		actual,
		channelId: 0,
		readBalance: relay.quotaReminder.wantsBalance(userId),
		log: options.get('LogConsumeEnabled') ? {
			type: LOG_TYPE.cacheHit,
			username: call.caller.user.username,
			tokenName: call.caller.token.name,
			modelName: call.model,
			group: call.group,
			promptTokens: entry.usage.promptTokens,
			completionTokens: entry.usage.completionTokens,
			useTime: Math.round((performance.now() - call.startedAt) / 1000),
			isStream: call.stream,
			channelName: '',
			ip: call.clientAddress,
			content: '',
			other: { group: call.group, response_cache: { ratio, original_quota: entry.charge, cached_at: entry.createdAt } },
		} : undefined,
	})
	call.metrics?.settled(0, entry.usage, actual, undefined)
	if (outcome.settled && outcome.balance !== undefined) relay.quotaReminder.afterSettle(userId, outcome.balance)
}

/** A recorded stream's events, batch by batch as they first came. */
function replay(entry: CachedEntry): EventReader {
	const batches = entry.batches ?? []
	let next = 0
	return {
		async read() {
			if (next >= batches.length) return { events: [], done: true }
			const batch = batches[next++]!
			return { events: batch.map(replayedEvent), done: next >= batches.length }
		},
		async cancel() {
			next = batches.length
		},
	}
}

/**
 * What the entry says of the call that made it, read from the channel as the call was sent with it
 * (not as it may have been changed since), or undefined when its mapping cannot be read.
 */
function entryBase(call: HeldCall, wire: WireFormat, answeredBy: CachedEntry['answeredBy'], usage: Usage, quotaPerUnit: number): Omit<CachedEntry, 'answer' | 'batches'> | undefined {
	const channel = call.scope.answeringChannel
	if (!channel || channel.id !== answeredBy.channelId) return undefined
	let model: string
	try {
		model = upstreamModel(channel.modelMapping, call.model)
	} catch {
		return undefined
	}
	return {
		version: CACHE_ENTRY_VERSION, wire, usage, charge: quotaForUsage(call.pricing, usage, quotaPerUnit), answeredBy, upstreamModel: model,
		channelSettings: channel.settingsFingerprint, createdAt: nowSeconds(),
	}
}

function keep(dependencies: Dependencies, relay: RelayServices, ticket: CacheTicket, entry: CachedEntry) {
	const maxBytes = dependencies.options.get('ResponseCacheMaxBytes')
	relay.responseCache.set(ticket.key, encodeEntry(entry), ticket.seconds, maxBytes).catch((error) => {
		dependencies.logger.warn('keeping an answer in the response cache failed', { error: String(error) })
	})
}

/** The upstream's answer, kept in the cache when it completes as an answer worth replaying. */
export function recordInCache(dependencies: Dependencies, relay: RelayServices, call: HeldCall, ticket: CacheTicket, result: CallResult): RelayResult {
	const quotaPerUnit = dependencies.options.get('QuotaPerUnit')
	if (result.kind === 'answer') {
		const text = result.text ?? JSON.stringify(result.answer)
		const worthKeeping = text.length <= ENTRY_LIMIT_CHARACTERS && !callsTool(result.wire, result.answer) && !result.notCharged
		const base = worthKeeping ? entryBase(call, result.wire, result.answeredBy, result.usage, quotaPerUnit) : undefined
		if (base) keep(dependencies, relay, ticket, { ...base, answer: text })
		return { ...result, cache: 'miss' }
	}
	if (result.kind !== 'stream') return { ...result, cache: 'miss' }
	const { wire, events } = result
	const batches: NonNullable<CachedEntry['batches']> = []
	let size = 0
	let worthKeeping = true
	const recording: EventReader = {
		async read() {
			const batch = await events.read()
			if (worthKeeping) {
				const kept = []
				for (const event of batch.events) {
					const keptEvent = keepEvent(event)
					const data = keptEvent && 'x' in keptEvent ? undefined : keptEvent && keptData(keptEvent)
					if (!keptEvent || (data && callsTool(wire, data))) {
						worthKeeping = false
						break
					}
					size += keptSize(keptEvent)
					kept.push(keptEvent)
				}
				if (size > ENTRY_LIMIT_CHARACTERS) worthKeeping = false
				if (worthKeeping && kept.length > 0) batches.push(kept)
			}
			if (batch.done && worthKeeping) {
				// The meter settled the call before handing on the last batch: its usage is known.
				void result.billed.then((usage) => {
					const base = usage && entryBase(call, wire, result.answeredBy, usage, quotaPerUnit)
					if (base) keep(dependencies, relay, ticket, { ...base, batches })
				})
			}
			return batch
		},
		async cancel(reason) {
			worthKeeping = false
			await events.cancel(reason)
		},
	}
	return { ...result, events: recording, cache: 'miss' }
}
