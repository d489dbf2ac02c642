import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const minimaxType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.minimax,
	name: 'MiniMax',
	defaultBaseUrl: 'https://api.minimaxi.com',
	defaultModels: ['MiniMax-M1', 'MiniMax-Text-01'],
	serves: serving({
		endpoints: { chat: { stream: true } },
		listsModels: true,
	}),
}
