import { bearer, openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { ollamaType } from './capabilities'

/** Ollama's OpenAI-compatible API; a local server needs no key, so none is sent when the channel has none. */
export const ollama = openAICompatible({
	...identityOf(ollamaType),
	headers: (channel) => (channel.key ? bearer(channel) : {}),
	// The native `GET /api/tags` lists the pulled models as `{models: [{name}]}`.
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl}/api/tags`, headers: bearer(channel) }),
		names: (answer) => {
			const models = (answer as { models?: unknown } | null)?.models
			return Array.isArray(models) ? models.map((model) => (model as { name?: unknown } | null)?.name) : []
		},
	},
})
