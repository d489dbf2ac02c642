import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

export const lingyiwanwu = openAICompatible({
	type: CHANNEL_TYPE.lingyiwanwu,
	name: '01.AI',
	defaultBaseUrl: 'https://api.lingyiwanwu.com',
	defaultModels: ['yi-lightning', 'yi-large', 'yi-medium'],
	endpoints: ['chat'],
})
