import type { ModelList } from '../types'

/** The ids of an OpenAI-style list answer `{data: [{id}]}`. */
export const openAIModelNames = (answer: unknown): unknown[] => {
	const data = (answer as { data?: unknown } | null)?.data
	return Array.isArray(data) ? data.map((model) => (model as { id?: unknown } | null)?.id) : []
}

/** OpenAI's `GET {base}/v1/models` with the key as a bearer token, which OpenAI-compatible upstreams serve. */
export const openAIModelList: ModelList = {
	request: (channel) => ({ url: `${channel.baseUrl}/v1/models`, headers: { authorization: `Bearer ${channel.key}` } }),
	names: openAIModelNames,
}
