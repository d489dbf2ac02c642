import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

export const minimax = openAICompatible({
	type: CHANNEL_TYPE.minimax,
	name: 'MiniMax',
	defaultBaseUrl: 'https://api.minimaxi.com',
	defaultModels: ['MiniMax-M1', 'MiniMax-Text-01'],
	endpoints: ['chat'],
})
