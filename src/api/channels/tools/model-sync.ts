/**
 * Upstream model sync: what an upstream's model list (read as `fetch_models` reads it) adds to or
 * drops from a channel's `models`, and applying a chosen part of that through the channel update
 * (abilities, routing and the admin audit follow as for any edit).
 */
import { eq } from 'drizzle-orm'
import { CHANNEL_MESSAGES, splitList, type ModelSyncDiff, type ModelSyncReport, type modelSyncApplySchema, type ChannelView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { type Language, renderMessage } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import type { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { followModelMapping } from '@shared/model-mapping'
import { capabilities } from '@/relay/providers/registry'
import type { AdminActor } from '../../admin-audit'
import { ApiError, badRequest, refused } from '../../errors'
import { updateChannel } from '../service'
import { eachBounded } from './bounded'
import { listUpstreamModels } from './models'
import { firstKey, loadToolChannel, loadToolChannels, withUsableKey, type ToolChannel } from './upstream'

/** Upstreams asked at once by the all-channel check, as for balances. */
const MODEL_SYNC_CONCURRENCY = 4

/** The upstream name the channel asks for `model` under (itself when unmapped or the mapping loops). */
function upstreamNameOf(mapping: Record<string, string>, model: string): string {
	if (!Object.hasOwn(mapping, model)) return model
	const outcome = followModelMapping(mapping, model)
	return outcome.cycle ? model : outcome.model
}

/**
 * The difference between a channel's models and its upstream's list. A channel model is present when
 * the upstream lists it or the name it maps to; an upstream model is served when the channel lists
 * it or maps one of its models onto it.
 */
export function modelDifference(channelModels: readonly string[], mapping: Record<string, string>, upstream: readonly string[]) {
	const listed = new Set(upstream)
	const served = new Set<string>(channelModels)
	for (const model of channelModels) served.add(upstreamNameOf(mapping, model))
	return {
		added: upstream.filter((model) => !served.has(model)).sort(),
		removed: channelModels.filter((model) => !listed.has(model) && !listed.has(upstreamNameOf(mapping, model))).sort(),
	}
}

async function diffOf(dependencies: Dependencies, channel: ToolChannel): Promise<Omit<ModelSyncDiff, 'error'>> {
	const usable = withUsableKey(channel)
	const upstream = await listUpstreamModels(dependencies, { type: usable.type, baseUrl: usable.baseUrl, key: firstKey(usable.key), other: usable.other })
	return { id: channel.id, name: channel.name, ...modelDifference(channel.models, channel.modelMapping, upstream) }
}

/** One channel, whatever its status; a listing that fails is the caller's refusal (as `fetch_models`). */
export async function modelSyncOfChannel(dependencies: Dependencies, id: number): Promise<ModelSyncReport> {
	return { channels: [{ ...await diffOf(dependencies, await loadToolChannel(dependencies, id)), error: '' }] }
}

/**
 * Every enabled channel whose type has a model list call, MODEL_SYNC_CONCURRENCY at a time, in id
 * order. A channel whose listing fails carries its reason in `language`; the others are unaffected.
 * Each call is bounded by the tools' timeouts, so the answer waits for all of them.
 */
export async function modelSyncOfAllChannels(dependencies: Dependencies, language: Language): Promise<ModelSyncReport> {
	const channels = (await loadToolChannels(dependencies, [CHANNEL_STATUS.enabled])).filter((channel) => capabilities(channel.type)?.listsModels === true)
	const diffs = new Map<number, ModelSyncDiff>()
	await eachBounded(channels, MODEL_SYNC_CONCURRENCY, async (channel) => {
		try {
			diffs.set(channel.id, { ...await diffOf(dependencies, channel), error: '' })
		} catch (error) {
			dependencies.logger.warn('reading an upstream model list failed', { channelId: channel.id, reason: String((error as Error).message) })
			const reason = renderMessage(language, error instanceof ApiError ? error.reason : CHANNEL_TOOL_MESSAGES.modelListRequestFailed)
			diffs.set(channel.id, { id: channel.id, name: channel.name, added: [], removed: [], error: reason })
		}
	})
	return { channels: channels.map((channel) => diffs.get(channel.id)!) }
}

/**
 * Adds and removes the chosen models (a name already there is not added twice; one not there is not
 * removed) through the channel update. A channel left without models is refused.
 */
export async function applyModelSync(
	dependencies: Dependencies, id: number, choice: z.infer<typeof modelSyncApplySchema>, actor: AdminActor, language: Language,
): Promise<{ channel: ChannelView; added: number; removed: number }> {
	const { store } = dependencies
	const { channels } = store.tables
	const [current] = await store.db.select({ models: channels.models }).from(channels).where(eq(channels.id, id))
	if (!current) throw refused(CHANNEL_MESSAGES.notFound)
	const before = splitList(current.models)
	const removing = new Set(choice.remove)
	const kept = before.filter((model) => !removing.has(model))
	const adding = choice.add.filter((model) => !kept.includes(model))
	const models = [...kept, ...adding]
	if (models.length === 0) throw badRequest(CHANNEL_TOOL_MESSAGES.modelSyncLastModel)
	const channel = await updateChannel(dependencies, { id, models }, actor, language)
	return { channel, added: adding.length, removed: before.length - kept.length }
}
