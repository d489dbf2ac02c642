import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

export const moonshot = openAICompatible({
	type: CHANNEL_TYPE.moonshot,
	name: 'Moonshot',
	defaultBaseUrl: 'https://api.moonshot.cn',
	endpoints: ['chat'],
})
