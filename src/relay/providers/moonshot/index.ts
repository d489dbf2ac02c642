import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'
import { readMoonshotBalance } from './balance'

export const moonshot = openAICompatible({
	type: CHANNEL_TYPE.moonshot,
	name: 'Moonshot',
	defaultBaseUrl: 'https://api.moonshot.cn',
	defaultModels: ['kimi-latest', 'moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
	endpoints: ['chat'],
	readBalance: readMoonshotBalance,
})
