import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

export const ai360 = openAICompatible({
	type: CHANNEL_TYPE.ai360,
	name: '360 Brain',
	defaultBaseUrl: 'https://ai.360.cn',
	endpoints: ['chat', 'embeddings'],
})
