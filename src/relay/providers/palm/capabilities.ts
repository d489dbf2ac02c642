import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const palmType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.palm,
	name: 'Google PaLM2',
	defaultBaseUrl: 'https://generativelanguage.googleapis.com',
	defaultModels: ['chat-bison-001'],
	serves: {
		endpoints: { chat: { stream: false } },
		nativeFormats: [],
		listsModels: false,
		readsBalance: false,
		sockets: [],
	},
}
