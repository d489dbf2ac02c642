import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

export const siliconflow = openAICompatible({
	type: CHANNEL_TYPE.siliconflow,
	name: 'SiliconCloud',
	defaultBaseUrl: 'https://api.siliconflow.cn',
	endpoints: ['chat', 'embeddings'],
})
