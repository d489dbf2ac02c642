/** The channel editor's calls (docs/specification/channels.md#calls). Shapes: src/shared/channel.ts, src/api/channels/. */
import type { ChannelCheck, ChannelDetail, ChannelKeysAdded, ChannelKeyTestReport, ChannelKeyView, ChannelModelEntry, ChannelTestResult, ChannelView, MultiKeyMode } from '@shared/channel'
import type { Api } from '@ui/lib/api'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

/** What `POST` and `PUT /api/channel/` take; see createChannelSchema and updateChannelSchema. */
export type ChannelPayload = {
	type: number
	/** Empty: the cost is unknown. */
	cost_ratio?: number | ''
	model_cost?: string
	name: string
	key?: string
	mode?: 'single' | 'batch' | 'multi_key'
	multi_key_mode?: MultiKeyMode
	base_url: string
	other: string
	models: string
	group: string
	model_mapping: string
	status_code_mapping: string
	setting: string
	/** 0: no limit. */
	max_input_tokens?: number
	tag: string
	priority?: number
	weight?: number
	openai_organization: string
	test_model: string
	auto_ban: 0 | 1
	scheduled_test_enabled: boolean
}

/** The channel and, for a multi-key one, its keys (index, hint and health; never a key). */
export function getChannel(api: Api, id: number) {
	return api.get<ChannelDetail>(`/api/channel/${id}`)
}

/** A multi-key channel's keys: add (read as on creation), enable or disable by hand, delete, test one or all. */
export const addChannelKeys = (api: Api, id: number, key: string) => api.post<ChannelKeysAdded>(`/api/channel/${id}/keys`, { key })
export const setChannelKeyStatus = (api: Api, id: number, index: number, status: number) => api.put<ChannelKeyView>(`/api/channel/${id}/keys/${index}`, { status })
export const deleteChannelKey = (api: Api, id: number, index: number) => api.delete(`/api/channel/${id}/keys/${index}`)
export const testChannelKey = (api: Api, id: number, index: number) => api.get<ChannelTestResult>(`/api/channel/test/${id}?key=${index}`)
export const testAllChannelKeys = (api: Api, id: number) => api.get<ChannelKeyTestReport>(`/api/channel/test/${id}?keys=all`)

export function getGroups(api: Api) {
	return api.get<string[]>('/api/group/')
}

/** Every model name configured on any channel: the model picker's options. */
export function getConfiguredModels(api: Api) {
	return api.get<ChannelModelEntry[]>('/api/channel/models')
}

export function createChannel(api: Api, payload: ChannelPayload) {
	return api.post<ChannelView[]>('/api/channel/', payload)
}

export function updateChannel(api: Api, payload: Partial<ChannelPayload> & { id: number }) {
	return api.put<ChannelView>('/api/channel/', payload)
}

/** What would keep the channel from serving: its base URL's reach (when given) and its models without a price. */
export function checkChannel(api: Api, fields: { type: number; base_url?: string; models: string[] }) {
	return api.post<ChannelCheck>('/api/channel/check', fields)
}

/** The private-upstream settings (super admin only): read before adding a host to the allow-list. */
export async function readPrivateUpstreamHosts(api: Api): Promise<string> {
	const envelope = await api.get<{ key: string; value: string }[]>('/api/option/')
	return envelope.success ? envelope.data.find((option) => option.key === 'PrivateUpstreamHosts')?.value ?? '' : ''
}

export function setPrivateUpstreamOption(api: Api, key: 'PrivateUpstreamsEnabled' | 'PrivateUpstreamHosts', value: string) {
	return api.put<undefined>('/api/option/', { key, value })
}

/** The upstream's model list answers names, or `{id}` entries as OpenAI's /v1/models does. */
type FetchedModels = (string | { id: string })[]

export function fetchModelsOfChannel(api: Api, id: number) {
	return api.get<FetchedModels>(`/api/channel/fetch_models/${id}`)
}

/**
 * Peer consoles have the browser call the upstream itself for a channel not saved yet; we ask the server
 * instead: a browser call to an arbitrary upstream hands the key to whatever answers there (and
 * third-party scripts), and most upstreams refuse cross-origin calls anyway.
 */
export function fetchModelsOfNewChannel(api: Api, fields: { base_url: string; type: number; key: string }) {
	return api.post<FetchedModels>('/api/channel/fetch_models', fields)
}

export type ModelsByType = Record<string, string[]>

export function readCachedModelsByType(): ModelsByType {
	try {
		const parsed: unknown = JSON.parse(readStorage(storageKeys.channelModels) ?? '{}')
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as ModelsByType : {}
	} catch {
		return {}
	}
}

/** `GET /api/models`: every type's default models and what its channels add (the editor's presets). */
export function getModelsByType(api: Api) {
	return api.get<ModelsByType>('/api/models')
}

/** The last answer is kept in localStorage (docs/specification/channels.md#calls), for when the call fails. */
export function cacheModelsByType(modelsByType: ModelsByType) {
	writeStorage(storageKeys.channelModels, JSON.stringify(modelsByType))
}
