import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const minimaxType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.minimax,
	name: 'MiniMax',
	defaultBaseUrl: 'https://api.minimaxi.com',
	defaultModels: ['MiniMax-M1', 'MiniMax-Text-01'],
	serves: {
		endpoints: { chat: { stream: true } },
		nativeFormats: [],
		listsModels: true,
		readsBalance: false,
		sockets: [],
	},
}
