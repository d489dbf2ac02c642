/**
 * The upstream's model list (docs/specification/channels.md#the-channel-tools `fetch_models`): for a saved channel with its stored key
 * (a usable one of a multi-key channel),
 * or for an unsaved one from `{base_url, type, key}`. Each adaptor says how its upstream lists
 * models (`ProviderAdaptor.modelList`); a type without a list call is told so. Answers the model
 * names, sorted; the key never appears in an answer.
 */
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { OutboundError } from '@/lib/outbound'
import { channelTypeName, isKnownChannelType, loadAdaptor } from '@/relay/providers/registry'
import { withValues } from '@shared/messages'
import { CHANNEL_MESSAGES, CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { badRequest, refused } from '../../errors'
import { baseUrlOf, firstKey, loadToolChannel, outboundFailure, upstreamFailure, upstreamGet, withoutV1, withUsableKey } from './upstream'

/** `POST /api/channel/fetch_models`: a channel not saved yet. */
export const fetchModelsSchema = z.object({
	base_url: z.string().trim().max(2048).optional().default('').transform((value) => value.replace(/\/+$/, '')),
	type: z.coerce.number({ error: CHANNEL_MESSAGES.typeUnknown }).int().refine(isKnownChannelType, CHANNEL_MESSAGES.typeUnknown),
	key: z.string({ error: CHANNEL_TOOL_MESSAGES.keyRequired }).trim().min(1, CHANNEL_TOOL_MESSAGES.keyRequired).max(16_384),
})

interface ListTarget {
	type: number
	baseUrl: string
	key: string
	/** The channel's `other`: Azure's API version. */
	other: string
}

/** The upstream's model names; refuses (a catalogue message) when the upstream cannot be asked or says no. */
export async function listUpstreamModels(dependencies: Dependencies, target: ListTarget): Promise<string[]> {
	const modelList = (await loadAdaptor(target.type))?.modelList
	if (!modelList) throw refused(withValues(CHANNEL_TOOL_MESSAGES.modelListUnsupported, { type: channelTypeName(target.type) }))
	const baseUrl = baseUrlOf(target.type, target.baseUrl)
	if (!baseUrl) throw refused(CHANNEL_TOOL_MESSAGES.baseUrlRequired)
	const call = modelList.request({ ...target, baseUrl: withoutV1(baseUrl), organization: '' })
	let answer: Awaited<ReturnType<typeof upstreamGet>>
	try {
		answer = await upstreamGet(dependencies, call.url, { ...call.headers, accept: 'application/json' })
	} catch (error) {
		throw refused(error instanceof OutboundError ? outboundFailure(error, CHANNEL_TOOL_MESSAGES.modelListRequestFailed) : CHANNEL_TOOL_MESSAGES.modelListRequestFailed)
	}
	if (answer.status < 200 || answer.status > 299) throw refused(upstreamFailure(answer.status, answer.text, target))
	let names: unknown[]
	try {
		names = modelList.names(JSON.parse(answer.text))
	} catch {
		throw refused(CHANNEL_TOOL_MESSAGES.modelListUnreadable)
	}
	const models = names.filter((name): name is string => typeof name === 'string' && name.trim() !== '').map((name) => name.trim())
	return [...new Set(models)].sort()
}

export async function fetchModelsOfChannel(dependencies: Dependencies, id: number): Promise<string[]> {
	const channel = withUsableKey(await loadToolChannel(dependencies, id))
	return listUpstreamModels(dependencies, { type: channel.type, baseUrl: channel.baseUrl, key: firstKey(channel.key), other: channel.other })
}

export function fetchModelsOfNewChannel(dependencies: Dependencies, input: z.infer<typeof fetchModelsSchema>): Promise<string[]> {
	if (!input.key) throw badRequest(CHANNEL_TOOL_MESSAGES.keyRequired)
	return listUpstreamModels(dependencies, { type: input.type, baseUrl: input.base_url, key: firstKey(input.key), other: '' })
}
