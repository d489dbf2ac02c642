import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer, openAICompatible } from '../openai-compatible'

/** Ollama's OpenAI-compatible API; a local server needs no key, so none is sent when the channel has none. */
export const ollama = openAICompatible({
	type: CHANNEL_TYPE.ollama,
	name: 'Ollama',
	defaultBaseUrl: 'http://localhost:11434',
	defaultModels: ['llama3.2', 'qwen3', 'gemma3', 'deepseek-r1', 'nomic-embed-text'],
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
