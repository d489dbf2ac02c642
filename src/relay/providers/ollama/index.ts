import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer, openAICompatible } from '../openai-compatible'

/** Ollama's OpenAI-compatible API; a local server needs no key, so none is sent when the channel has none. */
export const ollama = openAICompatible({
	type: CHANNEL_TYPE.ollama,
	name: 'Ollama',
	defaultBaseUrl: 'http://localhost:11434',
	headers: (channel) => (channel.key ? bearer(channel) : {}),
})
