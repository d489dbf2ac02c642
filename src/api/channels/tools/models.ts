/**
 * The upstream's model list (seed 001 §7 `fetch_models`): for a saved channel with its stored key,
 * or for an unsaved one from `{base_url, type, key}`. OpenAI-compatible types answer
 * `GET {base}/v1/models`; Azure, Anthropic, Gemini, Ollama, Alibaba and Zhipu v4 have their own list
 * calls. Answers the model names, sorted; the key never appears in an answer.
 */
import { z } from 'zod'
import { CHANNEL_TYPE, DEFAULT_AZURE_API_VERSION, isChannelType } from '@shared/channel-type'
import type { Dependencies } from '@/dependencies'
import { OutboundError } from '@/lib/outbound'
import { badRequest, refused } from '../../errors'
import { baseUrlOf, firstKey, loadToolChannel, upstreamFailure, upstreamGet, withoutV1 } from './upstream'

export const FETCH_MODELS_MESSAGES = {
	keyRequired: 'please fill in the key',
	baseUrlRequired: 'please fill in the base URL',
	typeUnknown: 'please choose a known channel type',
	unreadable: 'the upstream model list could not be read',
}

const ANTHROPIC_VERSION = '2023-06-01'

/** `POST /api/channel/fetch_models`: a channel not saved yet. */
export const fetchModelsSchema = z.object({
	base_url: z.string().trim().max(2048).optional().default('').transform((value) => value.replace(/\/+$/, '')),
	type: z.coerce.number({ error: FETCH_MODELS_MESSAGES.typeUnknown }).int().refine(isChannelType, FETCH_MODELS_MESSAGES.typeUnknown),
	key: z.string({ error: FETCH_MODELS_MESSAGES.keyRequired }).trim().min(1, FETCH_MODELS_MESSAGES.keyRequired).max(16_384),
})

interface ListTarget {
	type: number
	baseUrl: string
	key: string
	/** The channel's `other`: Azure's API version. */
	other: string
}

interface ListCall {
	url: string
	headers: Record<string, string>
	names(answer: any): unknown[]
}

const openAIList = (answer: any) => Array.isArray(answer?.data) ? answer.data.map((model: any) => model?.id) : []

function listCall({ type, baseUrl, key, other }: ListTarget): ListCall {
	const base = withoutV1(baseUrl)
	const bearer = { authorization: `Bearer ${key}` }
	switch (type) {
		case CHANNEL_TYPE.anthropic:
			return { url: `${base}/v1/models`, headers: { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION }, names: openAIList }
		case CHANNEL_TYPE.azure:
			return {
				url: `${base.replace(/\/openai$/, '')}/openai/models?api-version=${encodeURIComponent(other || DEFAULT_AZURE_API_VERSION)}`,
				headers: { 'api-key': key },
				names: openAIList,
			}
		case CHANNEL_TYPE.gemini:
			return {
				url: `${base.replace(/\/v1beta$/, '')}/v1beta/models`,
				headers: { 'x-goog-api-key': key },
				names: (answer) => Array.isArray(answer?.models) ? answer.models.map((model: any) => String(model?.name ?? '').replace(/^models\//, '')) : [],
			}
		case CHANNEL_TYPE.ollama:
			return { url: `${base}/api/tags`, headers: bearer, names: (answer) => Array.isArray(answer?.models) ? answer.models.map((model: any) => model?.name) : [] }
		case CHANNEL_TYPE.ali:
			return { url: `${base.replace(/\/compatible-mode$/, '')}/compatible-mode/v1/models`, headers: bearer, names: openAIList }
		case CHANNEL_TYPE.zhipuV4:
			return { url: `${base.replace(/\/api\/paas\/v4$/, '')}/api/paas/v4/models`, headers: bearer, names: openAIList }
		default:
			return { url: `${base}/v1/models`, headers: bearer, names: openAIList }
	}
}

export async function listUpstreamModels(dependencies: Dependencies, target: ListTarget): Promise<string[]> {
	const baseUrl = baseUrlOf(target.type, target.baseUrl)
	if (!baseUrl) throw refused(FETCH_MODELS_MESSAGES.baseUrlRequired)
	const call = listCall({ ...target, baseUrl })
	let answer: Awaited<ReturnType<typeof upstreamGet>>
	try {
		answer = await upstreamGet(dependencies, call.url, { ...call.headers, accept: 'application/json' })
	} catch (error) {
		throw refused(error instanceof OutboundError ? error.message : 'the model list request to the upstream failed')
	}
	if (answer.status < 200 || answer.status > 299) throw refused(upstreamFailure(answer.status, answer.text, target))
	let names: unknown[]
	try {
		names = call.names(JSON.parse(answer.text))
	} catch {
		throw refused(FETCH_MODELS_MESSAGES.unreadable)
	}
	const models = names.filter((name): name is string => typeof name === 'string' && name.trim() !== '').map((name) => name.trim())
	return [...new Set(models)].sort()
}

export async function fetchModelsOfChannel(dependencies: Dependencies, id: number): Promise<string[]> {
	const channel = await loadToolChannel(dependencies, id)
	return listUpstreamModels(dependencies, { type: channel.type, baseUrl: channel.baseUrl, key: firstKey(channel.key), other: channel.other })
}

export function fetchModelsOfNewChannel(dependencies: Dependencies, input: z.infer<typeof fetchModelsSchema>): Promise<string[]> {
	if (!input.key) throw badRequest(FETCH_MODELS_MESSAGES.keyRequired)
	return listUpstreamModels(dependencies, { type: input.type, baseUrl: input.base_url, key: firstKey(input.key), other: '' })
}
