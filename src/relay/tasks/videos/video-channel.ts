/**
 * The channel and key a video task lives on, for its polls and reads: the upstream knows the task
 * only under the key that submitted it. The channel is read from the store (a disabled one's tasks
 * still finish; a deleted one's fail); the routing table has an enabled multi-key channel's keys.
 */
import type { Dependencies } from '@/dependencies'
import type { RoutableChannel } from '../../routing/routing-table'
import { loadAdaptor } from '../../providers/registry'
import type { UpstreamRequest, VideoAdaptor } from '../../providers/types'
import type { RelayServices } from '../../services'
import { channelsById, withTaskKey } from '../task-channels'
import { readBilling, type TaskRow } from '../task-rows'

export interface VideoChannel {
	channel: RoutableChannel
	videos: VideoAdaptor
	upstreamId: string
	/** The upstream model name (Veo and Kling name it in their poll paths). */
	upstreamModel: string
}

/** Undefined when the channel is gone or no longer serves videos. */
export async function videoChannelOf(dependencies: Dependencies, relay: RelayServices, row: TaskRow, known?: Map<number, RoutableChannel>): Promise<VideoChannel | undefined> {
	const billing = readBilling(row.privateData)
	// The store says whether the channel still exists; the routing table knows a multi-key channel's keys (withTaskKey).
	const stored = (known ?? await channelsById(dependencies, [row.channelId])).get(row.channelId)
	const adaptor = stored && (await loadAdaptor(stored.type))
	if (!stored || !adaptor?.videos) return undefined
	const channel = { ...withTaskKey(relay, stored, billing.key_index), baseUrl: stored.baseUrl || adaptor.defaultBaseUrl }
	return { channel, videos: adaptor.videos, upstreamId: billing.upstream_id ?? '', upstreamModel: billing.upstream_model || billing.model }
}

/** An adaptor's request as the outbound client's input: POST unless it says otherwise; a GET or DELETE carries no body. */
export function requestInit(request: UpstreamRequest, signal: AbortSignal) {
	const method = request.method ?? 'POST'
	return { method, headers: request.headers, body: method === 'POST' ? request.body : undefined, signal }
}
