import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const ollamaType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.ollama,
	name: 'Ollama',
	defaultBaseUrl: 'http://localhost:11434',
	defaultModels: ['llama3.2', 'qwen3', 'gemma3', 'deepseek-r1', 'nomic-embed-text'],
	serves: serving({
		endpoints: { chat: { stream: true }, completions: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
