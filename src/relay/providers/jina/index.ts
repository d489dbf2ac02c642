import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

export const jina = openAICompatible({
	type: CHANNEL_TYPE.jina,
	name: 'Jina',
	defaultBaseUrl: 'https://api.jina.ai',
	endpoints: ['embeddings'],
})
